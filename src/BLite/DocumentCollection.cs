using BLite.Bson.Mapping;

namespace BLite;

/// <summary>
/// A typed collection of a <see cref="DocumentDbContext"/>: its name and the compile-time mapper
/// that converts <typeparamref name="T"/> to C-BSON.
/// </summary>
public class DocumentCollection<TId, T>
    where T : class
{
    public DocumentCollection(string name, IDocumentMapper<TId, T> mapper)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        ArgumentNullException.ThrowIfNull(mapper);
        Name = name;
        Mapper = mapper;
    }

    public string Name { get; }

    public IDocumentMapper<TId, T> Mapper { get; }
}
