using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Storage;
using BLite.Core.Vectors;

namespace BLite.Core.CrashWorker;

/// <summary>
/// <c>vectors &lt;path&gt; &lt;Full|Normal&gt;</c>: the vector-index crash workload. Commits
/// transactions forever, printing "ack n" after transaction n's Commit returns. Transaction n
/// inserts note n with vector (n, 0), moves note n-1 to vector (n-1, 1), deletes note n-3 when n
/// is a multiple of 5, and records n in the ledger, so the state after n is a pure function of n.
/// </summary>
internal static class VectorWorkload
{
    public const int Dimensions = 16;

    public static VectorIndexDefinition Index { get; } = new("byEmbedding", "embedding", Dimensions, VectorMetric.Euclidean, m: 6, efConstruction: 24);

    public static int Run(string path, Durability durability, bool encrypted)
    {
        using var database = DocumentDatabase.Open(path, new StorageOptions
        {
            Durability = durability,
            PageSize = 4096,
            WalCheckpointThresholdBytes = 128 * 1024,
            Encryption = encrypted ? BLiteEncryption.WithKey(CrashEncryption.Key) : null,
        },
        [new CollectionDefinition("notes", vectorIndexes: [Index]), new CollectionDefinition("meta")]);
        LedgerLoop.Run(database, "notes", Note, Console.Out);
        return 0;
    }

    public static float[] Vector(long id, int revision)
    {
        var random = new Random((int)(id * 2) + revision);
        var vector = new float[Dimensions];
        for (var i = 0; i < vector.Length; i++)
        {
            vector[i] = (float)random.NextDouble();
        }

        return vector;
    }

    public static BsonDocument Note(long id, int revision) => new()
    {
        ["_id"] = id,
        ["revision"] = revision,
        ["embedding"] = BsonVector.FromFloat32(Vector(id, revision)),
    };
}
