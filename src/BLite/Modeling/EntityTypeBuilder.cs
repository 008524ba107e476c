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

    /// <summary>An <c>IdConverter&lt;TId&gt;</c> for an id type BLite does not store natively, or null.</summary>
    internal object? IdConverter { get; private protected set; }
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

/// <summary>An index as declared: C# member paths, resolved to stored field paths once the mapper exists.</summary>
internal sealed record IndexDeclaration(IReadOnlyList<string> MemberPaths, bool Unique, string? Name);
