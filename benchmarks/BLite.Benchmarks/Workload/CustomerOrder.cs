using System.Text.Json.Serialization;
using BLite.Bson;
using BLite.Bson.Mapping;
using MemoryPack;

namespace BLite.Benchmarks.Workload;

/// <summary>
/// The e-commerce order of the shared benchmark workload (about 1–2 KB serialized). BLite maps it
/// with a compile-time mapper (<c>CustomerOrderDocumentMapper</c>); peers that need a string id use
/// <c>Id.ToString()</c> (24 lowercase hex digits). MemoryPack carries <see cref="Id"/> itself: an
/// <see cref="ObjectId"/> is an unmanaged 12-byte struct, which MemoryPack copies as raw bytes.
/// </summary>
[BLiteDocument]
[MemoryPackable]
public sealed partial class CustomerOrder
{
    [JsonIgnore]
    public ObjectId Id { get; set; }

    /// <summary>
    /// The id in the string form the JSON peers store, as a property rather than a converter: a
    /// custom converter would turn off System.Text.Json's source-generated fast path and make
    /// that peer slower than its own users would see it.
    /// </summary>
    [BsonIgnore]
    [MemoryPackIgnore]
    [JsonPropertyName(nameof(Id))]
    public string IdText
    {
        get => Id.ToString();
        set => Id = ObjectId.Parse(value);
    }

    public string OrderNumber { get; set; } = "";
    public DateTime PlacedAt { get; set; }
    public string Status { get; set; } = "";
    public string Currency { get; set; } = "";
    public decimal Subtotal { get; set; }
    public decimal TaxAmount { get; set; }
    public decimal Total { get; set; }
    public CustomerContact Customer { get; set; } = new();
    public ShippingInfo Shipping { get; set; } = new();
    public List<OrderLine> Lines { get; set; } = [];
    public List<OrderNote> Notes { get; set; } = [];
    public List<string> Tags { get; set; } = [];
}

[MemoryPackable]
public sealed partial class CustomerContact
{
    public string FullName { get; set; } = "";
    public string Email { get; set; } = "";
    public string Phone { get; set; } = "";
    public PostalAddress BillingAddress { get; set; } = new();
}

[MemoryPackable]
public sealed partial class PostalAddress
{
    public string Street { get; set; } = "";
    public string City { get; set; } = "";
    public string ZipCode { get; set; } = "";
    public string Country { get; set; } = "";
}

[MemoryPackable]
public sealed partial class ShippingInfo
{
    public string Carrier { get; set; } = "";
    public string TrackingNumber { get; set; } = "";
    public DateTime EstimatedDelivery { get; set; }
    public PostalAddress Destination { get; set; } = new();
}

[MemoryPackable]
public sealed partial class OrderLine
{
    public string Sku { get; set; } = "";
    public string ProductName { get; set; } = "";
    public int Quantity { get; set; }
    public decimal UnitPrice { get; set; }
    public decimal Subtotal { get; set; }
    public List<string> Tags { get; set; } = [];
}

[MemoryPackable]
public sealed partial class OrderNote
{
    public string Author { get; set; } = "";
    public string Text { get; set; } = "";
    public DateTime CreatedAt { get; set; }
}
