using System.Linq.Expressions;

namespace BLite;

/// <summary>
/// Refines the index just declared by <see cref="EntityTypeBuilder{T}.HasIndex{TKey}"/>, as EF Core's
/// index builder does (<c>HasIndex(o =&gt; o.Email).IsUnique()</c>). It also continues the entity's
/// configuration, so declarations chain as before (<c>.HasIndex(a).HasIndex(b)</c>).
/// </summary>
public sealed class IndexBuilder<T>
    where T : class
{
    private readonly EntityTypeBuilder<T> _entity;
    private readonly int _position;

    internal IndexBuilder(EntityTypeBuilder<T> entity, int position)
    {
        _entity = entity;
        _position = position;
    }

    /// <summary>Makes the index unique (or not): a second document with the same key is refused.</summary>
    public IndexBuilder<T> IsUnique(bool unique = true)
    {
        _entity.Indexes[_position] = _entity.Indexes[_position] with { Unique = unique };
        return this;
    }

    /// <summary>Names the index instead of the default <c>ix_</c> name.</summary>
    public IndexBuilder<T> HasName(string name)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        _entity.Indexes[_position] = _entity.Indexes[_position] with { Name = name };
        return this;
    }

    /// <inheritdoc cref="EntityTypeBuilder{T}.HasIndex{TKey}"/>
    public IndexBuilder<T> HasIndex<TKey>(Expression<Func<T, TKey>> keySelector, bool unique = false, string? name = null) =>
        _entity.HasIndex(keySelector, unique, name);

    /// <inheritdoc cref="EntityTypeBuilder{T}.ToCollection"/>
    public EntityTypeBuilder<T> ToCollection(string name) => _entity.ToCollection(name);

    /// <inheritdoc cref="EntityTypeBuilder{T}.HasChangeFeed(bool)"/>
    public EntityTypeBuilder<T> HasChangeFeed(bool includeBeforeImage = false) => _entity.HasChangeFeed(includeBeforeImage);

    /// <inheritdoc cref="EntityTypeBuilder{T}.HasIdConverter{TId, TKey}"/>
    public EntityTypeBuilder<T> HasIdConverter<TId, TKey>(Func<TId, TKey> toKey, Func<TKey, TId> fromKey) => _entity.HasIdConverter(toKey, fromKey);
}
