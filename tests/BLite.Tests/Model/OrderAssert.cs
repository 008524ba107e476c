namespace BLite.Tests.Model;

internal static class OrderAssert
{
    public static void Same(CustomerOrder expected, CustomerOrder? actual)
    {
        Assert.NotNull(actual);
        Assert.Equal(expected.Id, actual.Id);
        Assert.Equal(expected.OrderNumber, actual.OrderNumber);
        Assert.Equal(expected.PlacedAt, actual.PlacedAt);
        Assert.Equal(expected.PlacedAt.Kind, actual.PlacedAt.Kind);
        Assert.Equal(expected.Status, actual.Status);
        Assert.Equal(expected.Total, actual.Total);
        Assert.Equal(expected.Customer.FullName, actual.Customer.FullName);
        Assert.Equal(expected.Customer.Email, actual.Customer.Email);
        Assert.Equal(expected.Lines.Select(l => (l.Sku, l.Quantity, l.UnitPrice)), actual.Lines.Select(l => (l.Sku, l.Quantity, l.UnitPrice)));
        Assert.Equal(expected.Tags, actual.Tags);
    }
}
