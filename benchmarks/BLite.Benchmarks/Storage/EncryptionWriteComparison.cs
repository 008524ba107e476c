using System.Diagnostics;
using System.Globalization;
using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Storage;

/// <summary>
/// <c>encryption [--rounds R] [--inserts N] [--batches B]</c>: what encryption at rest costs on
/// writes at <c>Full</c>, measured so that a shared disk's swings fall on both sides alike. Two
/// databases, plain and AES-256-GCM, take turns operation by operation (the first of each pair
/// alternating), rather than one after the other as BenchmarkDotNet's parameter cases run: on a
/// machine where other processes flush, a flush's latency changes by ten times within seconds,
/// which a sequential run reads as a difference between the two. Per round: N single inserts
/// and B batches of 1,000 inserts on each. Reports the medians, the means and their ratios.
/// </summary>
internal static class EncryptionWriteComparison
{
    private const int BatchSize = 1_000;

    public static int Run(IReadOnlyList<string> args)
    {
        var rounds = ModeArguments.Int(args, "--rounds", 5);
        var inserts = ModeArguments.Int(args, "--inserts", 200);
        var batches = ModeArguments.Int(args, "--batches", 20);
        using var files = new EncryptionBenchmarkFiles();
        using var plain = files.Open("plain.blite", encrypted: false, Durability.Full);
        using var encrypted = files.Open("encrypted.blite", encrypted: true, Durability.Full);
        var generator = new OrderGenerator(11);
        Console.WriteLine($"encryption, writes at Full: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores, load average {File.ReadAllText("/proc/loadavg").Trim()}");

        // Warm-up: JIT, and non-empty databases as in EncryptionWriteBenchmarks.
        for (var i = 0; i < BatchSize; i++)
        {
            plain.Orders.Insert(Fresh(generator));
            encrypted.Orders.Insert(Fresh(generator));
        }

        var single = new Times();
        var batch = new Times();
        for (var round = 0; round < rounds; round++)
        {
            for (var i = 0; i < inserts; i++)
            {
                Pair(single, i, plain, encrypted, db => db.Orders.Insert(Fresh(generator)));
            }

            for (var i = 0; i < batches; i++)
            {
                var orders = Enumerable.Range(0, BatchSize).Select(_ => Fresh(generator)).ToList();
                var copies = orders.Select(order => Fresh(generator)).ToList();
                Pair(batch, i, plain, encrypted, db => db.Orders.InsertMany(ReferenceEquals(db, plain) ? orders : copies));
            }
        }

        Console.WriteLine(single.Describe("single insert", "us", 1_000));
        Console.WriteLine(batch.Describe($"batch insert {BatchSize}", "ms", 1));
        Console.WriteLine($"load average after: {File.ReadAllText("/proc/loadavg").Trim()}");
        return 0;
    }

    private static void Pair(Times times, int index, BenchOrdersContext plain, BenchOrdersContext encrypted, Action<BenchOrdersContext> operation)
    {
        var plainFirst = index % 2 == 0;
        var first = Time(plainFirst ? plain : encrypted, operation);
        var second = Time(plainFirst ? encrypted : plain, operation);
        times.Plain.Add(plainFirst ? first : second);
        times.Encrypted.Add(plainFirst ? second : first);
    }

    private static double Time(BenchOrdersContext db, Action<BenchOrdersContext> operation)
    {
        var started = Stopwatch.GetTimestamp();
        operation(db);
        return Stopwatch.GetElapsedTime(started).TotalMilliseconds;
    }

    private static CustomerOrder Fresh(OrderGenerator generator)
    {
        var order = generator.Next();
        order.Id = default;
        return order;
    }

    /// <summary>Milliseconds per operation, plain and encrypted, in the order they were taken.</summary>
    private sealed class Times
    {
        public List<double> Plain { get; } = [];

        public List<double> Encrypted { get; } = [];

        public string Describe(string operation, string unit, double scale)
        {
            var (plainMedian, encryptedMedian) = (Median(Plain) * scale, Median(Encrypted) * scale);
            var (plainMean, encryptedMean) = (Plain.Average() * scale, Encrypted.Average() * scale);
            return string.Create(CultureInfo.InvariantCulture, $"{operation} ({Plain.Count} each): median plain {plainMedian:0.0} {unit}, encrypted {encryptedMedian:0.0} {unit}, ratio {encryptedMedian / plainMedian:0.00}; mean {plainMean:0.0} / {encryptedMean:0.0} {unit}, ratio {encryptedMean / plainMean:0.00}");
        }

        private static double Median(List<double> values)
        {
            var sorted = values.Order().ToList();
            return sorted[sorted.Count / 2];
        }
    }
}
