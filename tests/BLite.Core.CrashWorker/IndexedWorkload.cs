using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Storage;

namespace BLite.Core.CrashWorker;

/// <summary>
/// <c>indexed &lt;path&gt; &lt;Full|Normal&gt;</c>: the collections-layer crash workload. Opens a
/// database with secondary indexes (non-unique, unique, multikey) and commits transactions
/// forever, printing "ack n" after transaction n's Commit returns. Transaction n inserts
/// document n, rewrites document n-1 (so every index entry of it changes), deletes document n-3
/// when n is a multiple of 5, and records n in the ledger document of collection "meta". The
/// state after n is therefore a pure function of n, which the crash test recomputes on its own.
/// </summary>
internal static class IndexedWorkload
{
    public static readonly string[] Statuses = ["pending", "confirmed", "shipped", "delivered"];

    public static int Run(string path, Durability durability, bool encrypted)
    {
        using var database = DocumentDatabase.Open(path, new StorageOptions
        {
            Durability = durability,
            PageSize = 4096,
            WalCheckpointThresholdBytes = 128 * 1024,
            Encryption = encrypted ? BLiteEncryption.WithKey(CrashEncryption.Key) : null,
        },
        [
            new CollectionDefinition("orders",
            [
                new IndexDefinition("byStatus", "status"),
                new IndexDefinition("byEmail", "customer.email", unique: true),
                new IndexDefinition("byTag", "tags"),
            ]),
            new CollectionDefinition("meta"),
        ]);
        LedgerLoop.Run(database, "orders", Order, Console.Out);
        return 0;
    }

    /// <summary>Document <paramref name="id"/> as transaction id (revision 0) and id + 1 (revision 1) write it.</summary>
    public static BsonDocument Order(long id, int revision) => new()
    {
        ["_id"] = id,
        ["status"] = Statuses[(id + revision) % Statuses.Length],
        ["customer"] = new BsonDocument { ["email"] = $"user{id}-r{revision}@example.org" },
        ["tags"] = new BsonArray { "t" + ((id + revision) % 5), "u" + ((id * 3 + revision) % 7) },
        ["revision"] = revision,
        ["pad"] = new string('p', (int)(id * 37 % 700)),
    };
}
