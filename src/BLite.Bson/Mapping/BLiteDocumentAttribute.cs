namespace BLite.Bson.Mapping;

/// <summary>
/// Asks the BLite source generator for a mapper for this type even when no
/// <c>DocumentDbContext</c> declares a collection of it. The generated class is named
/// <c>{TypeName}Mapper</c>, lives in the type's namespace and implements
/// <see cref="IDocumentMapper{TId, T}"/>.
/// </summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
public sealed class BLiteDocumentAttribute : Attribute
{
    public BLiteDocumentAttribute()
    {
    }

    public BLiteDocumentAttribute(string collectionName)
    {
        CollectionName = collectionName;
    }

    /// <summary>The collection name; the type name when not given.</summary>
    public string? CollectionName { get; }
}
