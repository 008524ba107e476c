using BLite.Bson;

namespace BLite;

/// <summary>
/// Base of an application's database context. Declare a <c>partial</c> subclass with
/// <see cref="DocumentCollection{TId, T}"/> properties; the BLite source generator implements
/// <see cref="CreateCollections"/> for it, creating each collection with its compile-time mapper.
/// </summary>
public abstract class DocumentDbContext
{
    /// <summary>A context over a new, empty field dictionary.</summary>
    protected DocumentDbContext()
        : this(new BsonFieldDictionary())
    {
    }

    /// <summary>A context whose mappers resolve field names through <paramref name="fieldDictionary"/>.</summary>
    protected DocumentDbContext(BsonFieldDictionary fieldDictionary)
    {
        ArgumentNullException.ThrowIfNull(fieldDictionary);
        FieldDictionary = fieldDictionary;
        // Runs before the subclass constructor body on purpose: the generated override only assigns
        // collection properties, so the subclass sees them created from its first line on.
        CreateCollections();
    }

    /// <summary>The database's field names and their ids, shared by every mapper of this context.</summary>
    public BsonFieldDictionary FieldDictionary { get; }

    /// <summary>
    /// Creates the collection properties. Implemented by the source generator; an override calls
    /// the base first, so collections of a base context are created too.
    /// </summary>
    protected virtual void CreateCollections()
    {
    }
}
