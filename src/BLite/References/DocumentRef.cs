namespace BLite;

/// <summary>
/// A typed reference from one document to a document of another collection (or of the same one),
/// stored as the referenced document's id and nothing else: <c>customer: ObjectId(...)</c>. So an
/// index on the member is an ordinary index on ids, and <c>Where(o =&gt; o.Customer.Id == id)</c> or
/// <c>ids.Contains(o.Customer.Id)</c> runs through it.
/// <para>
/// The referenced document is read only when a query asks for it with
/// <c>Query().Include(o =&gt; o.Customer)</c> (<see cref="Linq.QueryableIncludeExtensions"/>);
/// then <see cref="Value"/> holds it. A reference may dangle: deleting a referenced document is
/// never blocked, and Include reads a dangling reference as null (or throws, on request).
/// </para>
/// </summary>
/// <typeparam name="TId">The id type of the referenced document.</typeparam>
/// <typeparam name="T">The referenced document type; the context must have a collection of it for Include.</typeparam>
public sealed class DocumentRef<TId, T> : IEquatable<DocumentRef<TId, T>>, IDocumentReference
    where TId : notnull
    where T : class
{
    private T? _value;
    private ReferenceState _state;

    public DocumentRef(TId id)
    {
        if (id is null)
        {
            throw new ArgumentNullException(nameof(id), "A reference needs the id of the referenced document; use a null reference for \"none\".");
        }

        Id = id;
    }

    /// <summary>A reference to <paramref name="document"/>, already resolved to it.</summary>
    public DocumentRef(TId id, T document)
        : this(id)
    {
        ArgumentNullException.ThrowIfNull(document);
        _value = document;
        _state = ReferenceState.Loaded;
    }

    /// <summary>The id of the referenced document: all that is stored.</summary>
    public TId Id { get; }

    /// <summary>Whether <see cref="Value"/> was resolved (by Include, or given to the constructor).</summary>
    public bool IsLoaded => _state != ReferenceState.NotLoaded;

    /// <summary>Whether Include found no document with <see cref="Id"/>.</summary>
    public bool IsDangling => _state == ReferenceState.Dangling;

    /// <summary>
    /// The referenced document, or null when the reference dangles. Reading it before it was
    /// resolved throws <see cref="InvalidOperationException"/>: a query must ask for it with Include.
    /// </summary>
    public T? Value => _state != ReferenceState.NotLoaded
        ? _value
        : throw new InvalidOperationException($"The reference to {typeof(T).Name} '{Id}' was not loaded; add .Include(...) for it to the query.");

    Type IDocumentReference.TargetType => typeof(T);

    object IDocumentReference.BoxedId => Id;

    ReferenceLoader IDocumentReference.CreateLoader() => new ReferenceLoader<TId, T>();

    internal void Resolve(T? document)
    {
        _value = document;
        _state = document is null ? ReferenceState.Dangling : ReferenceState.Loaded;
    }

    public bool Equals(DocumentRef<TId, T>? other) =>
        other is not null && EqualityComparer<TId>.Default.Equals(Id, other.Id);

    public override bool Equals(object? obj) => Equals(obj as DocumentRef<TId, T>);

    public override int GetHashCode() => EqualityComparer<TId>.Default.GetHashCode(Id);

    public override string ToString() => $"{typeof(T).Name}({Id})";

    private enum ReferenceState : byte
    {
        NotLoaded,
        Loaded,
        Dangling,
    }
}

/// <summary>What Include does with a reference whose document does not exist.</summary>
public enum MissingReference
{
    /// <summary>The reference reads as null (<see cref="DocumentRef{TId, T}.IsDangling"/> is true).</summary>
    Null,

    /// <summary>The query throws <see cref="BLiteDanglingReferenceException"/>.</summary>
    Throw,
}

/// <summary>The non-generic face of <see cref="DocumentRef{TId, T}"/>, so Include can batch references of any type.</summary>
internal interface IDocumentReference
{
    Type TargetType { get; }

    /// <summary>The id, as a query value: a reference compares as the id it stores.</summary>
    object BoxedId { get; }

    ReferenceLoader CreateLoader();
}
