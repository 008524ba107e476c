using BLite.Tests.Model;

namespace BLite.Tests.Modeling;

public sealed class ModelBuilderTests
{
    [Fact]
    public void HasIndex_refuses_a_key_that_is_not_a_member_chain()
    {
        var entity = new ModelBuilder().Entity<CustomerOrder>();

        var error = Assert.Throws<NotSupportedException>(() => entity.HasIndex(o => o.Total * 2));

        Assert.Contains("HasIndex", error.Message);
        Assert.Throws<NotSupportedException>(() => entity.HasIndex(o => o.OrderNumber.ToUpperInvariant()));
    }

    [Fact]
    public void Entity_returns_one_builder_per_type()
    {
        var model = new ModelBuilder();

        Assert.Same(model.Entity<CustomerOrder>(), model.Entity<CustomerOrder>().ToCollection("x"));
    }
}
