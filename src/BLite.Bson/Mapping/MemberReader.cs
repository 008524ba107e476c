namespace BLite.Bson.Mapping;

/// <summary>
/// Reads one stored member value from raw C-BSON exactly as the generated deserializer reads it
/// into the member (integer narrowing, enums, Guids, converted ids, with the same errors). The
/// reader is positioned at the value; <paramref name="type"/> is the type its element header gave.
/// </summary>
public delegate TValue MemberValueReader<TValue>(ref BsonSpanReader reader, BsonType type);

/// <summary>
/// A typed reader of one single-valued scalar member path, emitted by the source generator
/// (<see cref="IMemberReaderProvider"/>): a projection reads the members it needs with it, without
/// materializing the document. No reflection is involved, so it is NativeAOT-safe.
/// </summary>
public abstract class MemberReader
{
    private protected MemberReader() { }

    /// <summary>The member's declared type (a <see cref="Nullable{T}"/> for a nullable value type).</summary>
    public abstract Type ValueType { get; }

    /// <summary>Reads the value as its declared type, boxed (null for a stored null of a nullable or reference type).</summary>
    public abstract object? ReadBoxed(ref BsonSpanReader reader, BsonType type);
}

/// <inheritdoc cref="MemberReader"/>
public sealed class MemberReader<TValue> : MemberReader
{
    private readonly MemberValueReader<TValue> _read;

    public MemberReader(MemberValueReader<TValue> read)
    {
        ArgumentNullException.ThrowIfNull(read);
        _read = read;
    }

    public override Type ValueType => typeof(TValue);

    public TValue Read(ref BsonSpanReader reader, BsonType type) => _read(ref reader, type);

    public override object? ReadBoxed(ref BsonSpanReader reader, BsonType type) => _read(ref reader, type);
}

/// <summary>Implemented by generated mappers: typed readers of the document's scalar members.</summary>
public interface IMemberReaderProvider
{
    /// <summary>
    /// The reader of a single-valued scalar member path (C# member names joined with '.', as
    /// <see cref="IDocumentMapper{TId, T}.TryGetField"/> takes them), or null for any other path
    /// (a collection, a nested object, a path through an array, a binary or vector member).
    /// </summary>
    MemberReader? GetMemberReader(string memberPath);
}
