namespace BLite.Generators.Model;

/// <summary>What a member or collection item holds, and so how it is written and read.</summary>
internal enum ValueKind : byte
{
    String,
    Boolean,
    Double,
    Single,
    Int32,
    Int16,
    SByte,
    Byte,
    UInt16,
    Char,
    Int64,
    UInt32,
    UInt64,
    Decimal,
    Guid,
    ObjectId,
    DateTime,
    DateTimeOffset,
    TimeSpan,
    DateOnly,
    TimeOnly,

    /// <summary><c>byte[]</c>, stored as Binary/Generic.</summary>
    Binary,

    /// <summary><c>float[]</c>, stored as a Binary/Vector of float32 components.</summary>
    Float32Vector,

    /// <summary><c>ReadOnlyMemory&lt;float&gt;</c>, stored as a Binary/Vector of float32 components.</summary>
    Float32VectorMemory,

    /// <summary>Stored as its underlying type (<see cref="ValueSpec.Element"/>).</summary>
    Enum,

    /// <summary><c>Nullable&lt;T&gt;</c> of <see cref="ValueSpec.Element"/>.</summary>
    Nullable,

    /// <summary>A class or struct mapped as an embedded document (<see cref="ValueSpec.TypeIndex"/>).</summary>
    Object,

    /// <summary>An array or collection interface (<see cref="ValueSpec.Collection"/>) of <see cref="ValueSpec.Element"/>.</summary>
    Collection,

    /// <summary>A string-keyed dictionary of <see cref="ValueSpec.Element"/>, stored as a document.</summary>
    Dictionary,

    /// <summary>A document id of a type BLite does not store natively, written and read through the mapper's IdConverter.</summary>
    ConvertedId,
}

/// <summary>The declared collection type: decides how items are iterated and what is created on read.</summary>
internal enum CollectionKind : byte
{
    Array,
    List,
    IList,
    IReadOnlyList,
    ICollection,
    IReadOnlyCollection,
    IEnumerable,
    HashSet,
    ISet,
    IReadOnlySet,
    Dictionary,
    IDictionary,
    IReadOnlyDictionary,
}

/// <param name="Kind">The shape.</param>
/// <param name="TypeName">Fully qualified, without a top-level nullable annotation (usable in <c>new</c> and patterns).</param>
/// <param name="AnnotatedTypeName">Fully qualified, with its nullable annotation (for locals).</param>
/// <param name="IsReferenceType">Whether a null check is needed before writing.</param>
internal sealed record ValueSpec(ValueKind Kind, string TypeName, string AnnotatedTypeName, bool IsReferenceType)
{
    public ValueSpec? Element { get; init; }

    public CollectionKind Collection { get; init; }

    /// <summary>For <see cref="ValueKind.Object"/>: index into <see cref="MapperSpec.Types"/>.</summary>
    public int TypeIndex { get; init; } = -1;

    /// <summary>For <see cref="ValueKind.Object"/>: the type declares derived types, so the runtime type picks the writer.</summary>
    public bool IsPolymorphic { get; init; }
}
