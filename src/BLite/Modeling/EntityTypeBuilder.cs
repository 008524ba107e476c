using System.Linq.Expressions;

namespace BLite;

/// <summary>Non-generic view of an entity's configuration.</summary>
public abstract class EntityTypeBuilder
{
    private protected EntityTypeBuilder()
    {
    }

    internal string? CollectionName { get; private protected set; }

    internal List<IndexDeclaration> Indexes { get; } = [];

    internal List<VectorIndexDeclaration> VectorIndexes { get; } = [];

    /// <summary>An <c>IdConverter&lt;TId&gt;</c> for an id type BLite does not store natively, or null.</summary>
    internal object? IdConverter { get; private protected set; }

    /// <summary>Whether and how this type's collection journals its changes.</summary>
    internal Core.ChangeFeed.ChangeFeedMode ChangeFeed { get; private protected set; }
}

/// <summary>Configures one document type: its collection name and its secondary indexes.</summary>
public sealed class EntityTypeBuilder<T> : EntityTypeBuilder
    where T : class
{
    internal EntityTypeBuilder()
    {
    }

    /// <summary>Stores this type's collection under <paramref name="name"/> instead of the generated default.</summary>
    public EntityTypeBuilder<T> ToCollection(string name)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        CollectionName = name;
        return this;
    }

    /// <summary>
    /// Declares a secondary index. <paramref name="keySelector"/> is a member chain
    /// (<c>o =&gt; o.Customer.Email</c>), an anonymous object of member chains for a composite
    /// index (<c>o =&gt; new { o.Status, o.PlacedAt }</c>), or a chain through a collection
    /// (<c>o =&gt; o.Lines.Select(l =&gt; l.Sku)</c>, one entry per item). Members map to stored
    /// field names by the generated mapper (<c>[BsonField]</c> renames, the id as <c>_id</c>).
    /// The default name is <c>ix_</c> followed by the field paths joined with <c>_</c>.
    /// Uniqueness and the name can also be set EF Core's way: <c>HasIndex(o =&gt; o.Email).IsUnique()</c>.
    /// </summary>
    public IndexBuilder<T> HasIndex<TKey>(Expression<Func<T, TKey>> keySelector, bool unique = false, string? name = null)
    {
        ArgumentNullException.ThrowIfNull(keySelector);
        if (name is not null)
        {
            ArgumentException.ThrowIfNullOrEmpty(name);
        }

        Indexes.Add(new IndexDeclaration(IndexKeyPaths.MemberPaths(keySelector), unique, name));
        return new IndexBuilder<T>(this, Indexes.Count - 1);
    }

    /// <summary>
    /// Journals every committed insert, update and delete of this collection in the database's
    /// change journal, so <c>Watch</c> can deliver them, and resume after a restart from a token
    /// (docs/changefeed.md). With <paramref name="includeBeforeImage"/> updates and deletes also
    /// carry the document as it was before. Collections without it pay nothing.
    /// </summary>
    public EntityTypeBuilder<T> HasChangeFeed(bool includeBeforeImage = false)
    {
        ChangeFeed = Core.ChangeFeed.ChangeFeedMode.On | (includeBeforeImage ? Core.ChangeFeed.ChangeFeedMode.BeforeImages : 0);
        return this;
    }

    /// <summary>
    /// Declares an HNSW vector index over a <c>float[]</c> or <c>ReadOnlyMemory&lt;float&gt;</c>
    /// member (stored as a BSON float32 vector), for <c>Query().NearestTo(...)</c>. A document
    /// whose vector has another dimension count or a NaN is refused; one whose vector is null is
    /// simply not indexed. <paramref name="m"/> (neighbours per node) and
    /// <paramref name="efConstruction"/> (candidates when linking) trade build time for recall.
    /// The default name is <c>vx_</c> followed by the field path.
    /// </summary>
    public EntityTypeBuilder<T> HasVectorIndex(Expression<Func<T, float[]?>> vector, int dimensions, VectorMetric metric = VectorMetric.Cosine,
        int m = Core.Vectors.VectorIndexDefinition.DefaultM, int efConstruction = Core.Vectors.VectorIndexDefinition.DefaultEfConstruction, string? name = null) =>
        AddVectorIndex(vector, dimensions, metric, m, efConstruction, name);

    /// <inheritdoc cref="HasVectorIndex(Expression{Func{T, float[]}}, int, VectorMetric, int, int, string?)"/>
    public EntityTypeBuilder<T> HasVectorIndex(Expression<Func<T, ReadOnlyMemory<float>>> vector, int dimensions, VectorMetric metric = VectorMetric.Cosine,
        int m = Core.Vectors.VectorIndexDefinition.DefaultM, int efConstruction = Core.Vectors.VectorIndexDefinition.DefaultEfConstruction, string? name = null) =>
        AddVectorIndex(vector, dimensions, metric, m, efConstruction, name);

    private EntityTypeBuilder<T> AddVectorIndex(LambdaExpression vector, int dimensions, VectorMetric metric, int m, int efConstruction, string? name)
    {
        ArgumentNullException.ThrowIfNull(vector);
        var paths = IndexKeyPaths.MemberPaths(vector);
        if (paths.Count != 1)
        {
            throw new ArgumentException("A vector index covers one member.", nameof(vector));
        }

        // Checks the parameters now, where the mistake is made, rather than when the context opens.
        _ = new Core.Vectors.VectorIndexDefinition(name ?? "vx_check", "v", dimensions, metric, m, efConstruction);
        VectorIndexes.Add(new VectorIndexDeclaration(paths[0], dimensions, metric, m, efConstruction, name));
        return this;
    }

    /// <summary>
    /// Stores an id type BLite does not know (<c>OrderId</c>, <c>CustomerCode</c>) as a supported key:
    /// <c>HasIdConverter((OrderId id) =&gt; id.Value, (Guid key) =&gt; new OrderId(key))</c>. The stored
    /// <c>_id</c> is the key, indexed and ordered like it; an id whose key is the default of a
    /// generated key type (Guid, ObjectId, int, long) is generated on insert and converted back.
    /// Required for every collection whose document id has such a type.
    /// </summary>
    /// <typeparam name="TId">The document's id type.</typeparam>
    /// <typeparam name="TKey">The stored key type: ObjectId, Guid, int, long or string.</typeparam>
    public EntityTypeBuilder<T> HasIdConverter<TId, TKey>(Func<TId, TKey> toKey, Func<TKey, TId> fromKey)
    {
        IdConverter = new Bson.Mapping.IdConverter<TId, TKey>(toKey, fromKey);
        return this;
    }
}

/// <summary>A vector index as declared: a C# member path, resolved to a stored field path once the mapper exists.</summary>
internal sealed record VectorIndexDeclaration(string MemberPath, int Dimensions, VectorMetric Metric, int M, int EfConstruction, string? Name);

/// <summary>An index as declared: C# member paths, resolved to stored field paths once the mapper exists.</summary>
internal sealed record IndexDeclaration(IReadOnlyList<string> MemberPaths, bool Unique, string? Name);
