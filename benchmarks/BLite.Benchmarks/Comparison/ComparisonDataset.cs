using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Comparison;

/// <summary>
/// The seeded dataset every engine is loaded with, plus what the scenarios draw from it: random
/// lookup keys over the whole dataset, a random sample of stored orders (for update and delete),
/// and fresh orders that are not stored yet (for inserts, so they go into a non-empty database).
/// The full dataset is regenerated per store rather than held, so 100,000 orders cost no memory.
/// </summary>
public sealed class ComparisonDataset
{
    public const int DocumentSeed = 42;
    public const int KeySeed = 7;
    public const int LookupKeyCount = 4096;
    public const int PopulateBatchSize = 1000;
    public const string ScannedStatus = "shipped";

    private readonly OrderGenerator _freshOrders;

    private ComparisonDataset(int documents, OrderId[] lookupKeys, CustomerOrder[] samples, OrderGenerator freshOrders)
    {
        Documents = documents;
        LookupKeys = lookupKeys;
        Samples = samples;
        _freshOrders = freshOrders;
    }

    public int Documents { get; }

    /// <summary>Ids drawn uniformly (with repeats) from the whole dataset; length is a power of two.</summary>
    public OrderId[] LookupKeys { get; }

    /// <summary>Distinct stored orders in random order, as they were inserted.</summary>
    public CustomerOrder[] Samples { get; }

    /// <param name="sampleCount">How many stored orders to keep for update and delete (at most all of them).</param>
    public static ComparisonDataset Create(int documents, int sampleCount)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(documents, 1);
        sampleCount = Math.Min(sampleCount, documents);
        var random = new Random(KeySeed);

        var sampledPositions = new Dictionary<int, int>(sampleCount);
        var order = Enumerable.Range(0, documents).ToArray();
        random.Shuffle(order);
        for (var i = 0; i < sampleCount; i++)
        {
            sampledPositions[order[i]] = i;
        }

        var lookupPositions = new int[LookupKeyCount];
        for (var i = 0; i < lookupPositions.Length; i++)
        {
            lookupPositions[i] = random.Next(documents);
        }

        var ids = new OrderId[documents];
        var samples = new CustomerOrder[sampleCount];
        var generator = new OrderGenerator(DocumentSeed);
        for (var i = 0; i < documents; i++)
        {
            var generated = generator.Next();
            ids[i] = generated.Id;
            if (sampledPositions.TryGetValue(i, out var slot))
            {
                samples[slot] = generated;
            }
        }

        var lookupKeys = new OrderId[LookupKeyCount];
        for (var i = 0; i < lookupKeys.Length; i++)
        {
            lookupKeys[i] = ids[lookupPositions[i]];
        }

        // The generator now stands after the dataset, so what it yields next is new to every store.
        return new ComparisonDataset(documents, lookupKeys, samples, generator);
    }

    /// <summary>Loads the dataset into an empty store, one transaction per 1,000 orders.</summary>
    public void Populate(IOrderStore store)
    {
        ArgumentNullException.ThrowIfNull(store);
        var generator = new OrderGenerator(DocumentSeed);
        var batch = new List<CustomerOrder>(PopulateBatchSize);
        for (var inserted = 0; inserted < Documents; inserted += batch.Count)
        {
            batch.Clear();
            var count = Math.Min(PopulateBatchSize, Documents - inserted);
            for (var i = 0; i < count; i++)
            {
                batch.Add(generator.Next());
            }

            store.InsertBatch(batch);
        }

        // A store that silently drops documents would make every later figure meaningless.
        if (store.Count != Documents)
        {
            throw new InvalidOperationException($"{store.Engine} holds {store.Count} documents after loading {Documents}.");
        }
    }

    /// <summary>Orders no store holds yet; each call yields different ids from every earlier call.</summary>
    public CustomerOrder[] TakeFreshOrders(int count)
    {
        var fresh = new CustomerOrder[count];
        for (var i = 0; i < count; i++)
        {
            fresh[i] = _freshOrders.Next();
        }

        return fresh;
    }

    /// <summary>Fresh orders each carrying an extra note of <paramref name="payloadBytes"/> ASCII characters.</summary>
    public CustomerOrder[] TakeLargeOrders(int count, int payloadBytes)
    {
        var orders = TakeFreshOrders(count);
        var random = new Random(payloadBytes);
        foreach (var order in orders)
        {
            order.Notes.Add(new OrderNote { Author = "archive", Text = RandomText(random, payloadBytes), CreatedAt = order.PlacedAt });
        }

        return orders;
    }

    private static string RandomText(Random random, int length) =>
        string.Create(length, random, static (span, r) =>
        {
            const string alphabet = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ.,0123456789";
            for (var i = 0; i < span.Length; i++)
            {
                span[i] = alphabet[r.Next(alphabet.Length)];
            }
        });
}
