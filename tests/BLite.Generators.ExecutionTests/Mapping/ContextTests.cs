using BLite.Bson;
using BLite.Generators.ExecutionTests.Models;

namespace BLite.Generators.ExecutionTests.Mapping;

public sealed class ContextTests
{
    [Fact]
    public void A_context_creates_its_collections_with_generated_mappers()
    {
        var context = new ShopContext();

        Assert.Equal("Customers", context.Customers.Name);
        Assert.Equal("books", context.Books.Name);
        Assert.Equal("Shelters", context.Shelters.Name);
        Assert.IsType<CustomerDocumentMapper>(context.Customers.Mapper);
    }

    [Fact]
    public void A_derived_context_also_creates_base_and_abstract_base_collections()
    {
        var context = new CatalogContext();

        Assert.NotNull(context.Customers);
        Assert.Equal("Categories", context.Categories.Name);
        Assert.Equal("Shipments", context.Shipments.Name);
    }

    [Fact]
    public void Every_mapper_of_a_context_shares_the_context_field_dictionary()
    {
        var dictionary = new BsonFieldDictionary();
        var context = new ShopContext(dictionary);

        Assert.Same(dictionary, context.FieldDictionary);
        Assert.True(dictionary.TryGetId("Residents", out _));
        Assert.True(dictionary.TryGetId("Street", out _));
        var customer = new Customer { Id = ObjectId.NewObjectId(), Name = "Ken" };
        RoundTrip.AssertRoundTrips(context.Customers.Mapper, customer);
    }
}
