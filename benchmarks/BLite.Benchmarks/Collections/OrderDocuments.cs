using BLite.Benchmarks.Workload;
using BLite.Bson;

namespace BLite.Benchmarks.Collections;

/// <summary>The shared e-commerce order as a schemaless document, for the collections-layer benchmarks.</summary>
internal static class OrderDocuments
{
    public static BsonDocument From(CustomerOrder order) => new()
    {
        ["_id"] = order.Id,
        ["orderNumber"] = order.OrderNumber,
        ["placedAt"] = order.PlacedAt,
        ["status"] = order.Status,
        ["currency"] = order.Currency,
        ["subtotal"] = order.Subtotal,
        ["taxAmount"] = order.TaxAmount,
        ["total"] = order.Total,
        ["customer"] = new BsonDocument
        {
            ["fullName"] = order.Customer.FullName,
            ["email"] = order.Customer.Email,
            ["phone"] = order.Customer.Phone,
            ["billingAddress"] = Address(order.Customer.BillingAddress),
        },
        ["shipping"] = new BsonDocument
        {
            ["carrier"] = order.Shipping.Carrier,
            ["trackingNumber"] = order.Shipping.TrackingNumber,
            ["estimatedDelivery"] = order.Shipping.EstimatedDelivery,
            ["destination"] = Address(order.Shipping.Destination),
        },
        ["lines"] = new BsonArray(order.Lines.Select(line => (BsonValue)new BsonDocument
        {
            ["sku"] = line.Sku,
            ["productName"] = line.ProductName,
            ["quantity"] = line.Quantity,
            ["unitPrice"] = line.UnitPrice,
            ["subtotal"] = line.Subtotal,
            ["tags"] = new BsonArray(line.Tags.Select(t => (BsonValue)t)),
        })),
        ["notes"] = new BsonArray(order.Notes.Select(note => (BsonValue)new BsonDocument
        {
            ["author"] = note.Author,
            ["text"] = note.Text,
            ["createdAt"] = note.CreatedAt,
        })),
        ["tags"] = new BsonArray(order.Tags.Select(t => (BsonValue)t)),
    };

    private static BsonDocument Address(PostalAddress address) => new()
    {
        ["street"] = address.Street,
        ["city"] = address.City,
        ["zipCode"] = address.ZipCode,
        ["country"] = address.Country,
    };
}
