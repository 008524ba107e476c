using BLite.Bson;

namespace BLite.Generators.ExecutionTests.Models;

/// <summary>A context: its collections are created by the generated CreateCollections.</summary>
public partial class ShopContext : DocumentDbContext
{
    public ShopContext()
    {
    }

    public ShopContext(BsonFieldDictionary fieldDictionary)
        : base(fieldDictionary)
    {
    }

    public DocumentCollection<ObjectId, Customer> Customers { get; set; } = null!;
    public DocumentCollection<ObjectId, Book> Books { get; private set; } = null!;
    public DocumentCollection<string, Shelter> Shelters { get; set; } = null!;
}

/// <summary>A context deriving from another context, through an abstract one.</summary>
public abstract class CatalogContextBase : ShopContext
{
    public DocumentCollection<int, Category> Categories { get; protected set; } = null!;
}

public sealed partial class CatalogContext : CatalogContextBase
{
    public DocumentCollection<Guid, Shipment> Shipments { get; set; } = null!;
}
