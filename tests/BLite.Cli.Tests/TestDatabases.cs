using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core;

namespace BLite.Cli.Tests;

/// <summary>Databases the tests create through the engine's public API before running blite on them.</summary>
internal static class TestDatabases
{
    public static readonly string[] Statuses = ["pending", "confirmed", "shipped", "delivered"];

    /// <summary>Order i: _id i, status cycling through <see cref="Statuses"/>, total (i * 37) % 101, and a few nested and typed fields.</summary>
    public static BsonDocument Order(int i) => new()
    {
        { "_id", i },
        { "status", Statuses[i % Statuses.Length] },
        { "total", (i * 37) % 101 },
        { "customer", new BsonDocument { { "name", "customer " + (i % 7) }, { "email", $"c{i}@example.com" } } },
        { "tags", new BsonArray { "t" + (i % 3), "all" } },
        { "price", 10.25m + i },
        { "placedAt", new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddMinutes(i) },
    };

    /// <summary>A shop with "orders" (indexed by status, unique on customer.email) and "customers".</summary>
    public static void CreateShop(string path, int orders = 40, BLiteEncryption? encryption = null)
    {
        using var database = DocumentDatabase.Open(path, new BLite.Core.Storage.StorageOptions { Encryption = encryption });
        var collection = database.GetCollection("orders");
        collection.EnsureIndex("by_status", "status");
        collection.EnsureIndex("by_email", "customer.email", unique: true);
        collection.InsertMany(Enumerable.Range(1, orders).Select(Order));
        database.GetCollection("customers").InsertMany(Enumerable.Range(1, 3).Select(i => new BsonDocument { { "_id", "c" + i }, { "name", "Customer " + i } }));
    }

    public static List<BsonDocument> ReadAll(string path, string collection, BLiteEncryption? encryption = null)
    {
        using var database = DocumentDatabase.Open(path, new BLite.Core.Storage.StorageOptions { Encryption = encryption });
        return database.GetCollection(collection).FindAll().ToList();
    }
}
