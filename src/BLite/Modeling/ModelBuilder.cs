namespace BLite;

/// <summary>
/// Declares, in <see cref="DocumentDbContext.OnModelCreating"/>, what the generated code cannot
/// see: collection names and secondary indexes. Read once when the context opens.
/// </summary>
public sealed class ModelBuilder
{
    private readonly Dictionary<Type, EntityTypeBuilder> _entities = [];

    public EntityTypeBuilder<T> Entity<T>()
        where T : class
    {
        if (!_entities.TryGetValue(typeof(T), out var builder))
        {
            builder = new EntityTypeBuilder<T>();
            _entities.Add(typeof(T), builder);
        }

        return (EntityTypeBuilder<T>)builder;
    }

    internal EntityTypeBuilder<T>? Find<T>()
        where T : class =>
        _entities.TryGetValue(typeof(T), out var builder) ? (EntityTypeBuilder<T>)builder : null;
}
