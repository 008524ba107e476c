using BLite.Bson.Mapping;

namespace BLite.Tests.Ids;

public readonly record struct OrderId(Guid Value);

public sealed class CustomerCode(string value) : IEquatable<CustomerCode>
{
    public string Value { get; } = value;

    public bool Equals(CustomerCode? other) => other is not null && other.Value == Value;

    public override bool Equals(object? obj) => Equals(obj as CustomerCode);

    public override int GetHashCode() => Value.GetHashCode(StringComparison.Ordinal);
}

public sealed class TypedOrder
{
    public OrderId Id { get; set; }

    public string Status { get; set; } = "";

    public int Quantity { get; set; }
}

public sealed class Customer
{
    public CustomerCode Id { get; set; } = null!;

    public string Name { get; set; } = "";
}

public partial class TypedIdContext : DocumentDbContext
{
    public TypedIdContext(string path)
        : base(path)
    {
    }

    public DocumentCollection<OrderId, TypedOrder> Orders { get; set; } = null!;

    public DocumentCollection<CustomerCode, Customer> Customers { get; set; } = null!;

    protected override void OnModelCreating(ModelBuilder model)
    {
        model.Entity<TypedOrder>().HasIdConverter((OrderId id) => id.Value, (Guid key) => new OrderId(key));
        model.Entity<Customer>().HasIdConverter((CustomerCode code) => code.Value, (string key) => new CustomerCode(key));
    }
}

/// <summary>Declares a custom-id collection but forgets its converter.</summary>
public partial class MissingConverterContext : DocumentDbContext
{
    public MissingConverterContext(string path)
        : base(path)
    {
    }

    public DocumentCollection<OrderId, TypedOrder> Orders { get; set; } = null!;
}
