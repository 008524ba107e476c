using BLite.Benchmarks.Comparison;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Manual;

internal sealed partial class ManualRunner
{
    private void RunFindById(IReadOnlyList<IOrderStore> stores)
    {
        RunFindByIdSingle(stores);
        var keys = _data.LookupKeys;
        var mask = keys.Length - 1;
        Compare("find-by-id-loop-1000", stores, store => _timer.Operations(int.MaxValue, i =>
        {
            var start = i * FindByIdLoopBenchmark.Lookups;
            for (var j = 0; j < FindByIdLoopBenchmark.Lookups; j++)
            {
                Require(store.FindById(keys[(start + j) & mask]));
            }
        }));
    }

    // Every engine reads each lookup key once before timing: at 1M documents the keys' pages are
    // not in any cache after loading, and on a loaded machine the sampling budget can run out
    // before they have all been read once, so the figure would mix first reads with steady
    // state in a proportion set by the machine's load rather than by the engine.
    private void RunFindByIdSingle(IReadOnlyList<IOrderStore> stores)
    {
        var keys = _data.LookupKeys;
        var mask = keys.Length - 1;
        foreach (var store in stores)
        {
            foreach (var key in keys)
            {
                Require(store.FindById(key));
            }
        }

        Compare("find-by-id", stores, store => _timer.Operations(int.MaxValue, i => Require(store.FindById(keys[i & mask]))));
    }

    // Each scan's results are let go as it ends: kept until the engine's next turn, a million-order
    // dataset's 250,000 results (1 GB of objects) would stay live while the other engines scan,
    // and their collections would trace and copy a heap that is not theirs.
    private void RunScan(IReadOnlyList<IOrderStore> stores, string scenario)
    {
        Compare(scenario, stores, store =>
        {
            var found = new List<CustomerOrder>();
            return _timer.Operations(int.MaxValue, _ =>
            {
                var count = store.FindByStatus(ComparisonDataset.ScannedStatus, found);
                found.Clear();
                if (count == 0)
                {
                    throw new InvalidOperationException($"{store.Engine} found no '{ComparisonDataset.ScannedStatus}' order.");
                }
            });
        });
    }

    private void RunUpdate(IReadOnlyList<IOrderStore> stores)
    {
        var samples = _data.Samples;
        Compare("update-single", stores, store => _timer.Operations(int.MaxValue, i =>
        {
            var order = samples[i % samples.Length];
            order.Shipping.EstimatedDelivery = order.Shipping.EstimatedDelivery.AddHours(1);
            Require(store.Update(order));
        }));
    }

    // Each deleted order is put back outside the timed region, so every delete hits a present
    // document and the dataset keeps its size.
    private void RunDelete(IReadOnlyList<IOrderStore> stores)
    {
        var samples = _data.Samples;
        Compare("delete-single", stores, store => _timer.Operations(
            int.MaxValue,
            i => Require(store.Delete(samples[i % samples.Length].Id)),
            i => store.Insert(samples[i % samples.Length])));
    }

    private void RunInsertSingle(IReadOnlyList<IOrderStore> stores)
    {
        var orders = _singleInserts;
        Compare("insert-single", stores, store => _timer.Operations(orders.Length, i => store.Insert(orders[i])));
    }

    private void RunInsertBatch(IReadOnlyList<IOrderStore> stores)
    {
        var batches = _batches;
        Compare($"insert-batch-{BatchSize}", stores, store => _timer.Operations(batches.Length, i => store.InsertBatch(batches[i])));
    }

    private void RunLargeDocuments(IReadOnlyList<IOrderStore> stores)
    {
        foreach (var payload in LargePayloadBytes)
        {
            var orders = _largeOrders[payload];
            var label = $"{payload / 1024}kb";
            var inserted = Compare($"insert-large-{label}", stores, store => _timer.Operations(orders.Length, i => store.Insert(orders[i])));

            // Each store finds only the large orders it was given, however many its insert run used.
            var storedByStore = new Dictionary<IOrderStore, int>(ReferenceEqualityComparer.Instance);
            for (var s = 0; s < stores.Count; s++)
            {
                storedByStore[stores[s]] = inserted[s].OperationsConsumed;
            }

            Compare($"find-by-id-large-{label}", stores, store =>
            {
                var stored = storedByStore[store];
                return _timer.Operations(int.MaxValue, i => Require(store.FindById(orders[i % stored].Id)));
            });
        }
    }

    private void RunConcurrentReaders(IReadOnlyList<IOrderStore> stores)
    {
        var keys = _data.LookupKeys;
        var mask = keys.Length - 1;
        foreach (var readers in ReaderCounts)
        {
            using var opened = new DisposableList<IDisposable>();
            var scenario = readers == 1 ? "find-by-id-1-reader" : $"find-by-id-{readers}-readers";
            Compare(scenario, stores, store =>
            {
                var sessions = OpenSessions(store, readers, opened);
                var rounds = opened.Add(new ConcurrentRounds(readers, (thread, round) =>
                {
                    var session = sessions[thread];
                    var start = (thread * 997) + (round * FindsPerReaderPerRound);
                    for (var i = 0; i < FindsPerReaderPerRound; i++)
                    {
                        Require(session.FindById(keys[(start + i) & mask]));
                    }
                }));
                return _timer.Rounds(rounds, readers * FindsPerReaderPerRound, int.MaxValue);
            });
        }
    }

    private void RunConcurrentWriters(IReadOnlyList<IOrderStore> stores)
    {
        var orders = _writerOrders;
        using var opened = new DisposableList<IDisposable>();
        Compare($"durable-commit-{WriterCount}-writers", stores, store =>
        {
            var sessions = OpenSessions(store, WriterCount, opened);
            var rounds = opened.Add(new ConcurrentRounds(WriterCount, (thread, round) =>
            {
                var session = sessions[thread];
                var first = ((round * WriterCount) + thread) * CommitsPerWriterPerRound;
                for (var i = 0; i < CommitsPerWriterPerRound; i++)
                {
                    session.Insert(orders[first + i]);
                }
            }));
            return _timer.Rounds(rounds, WriterCount * CommitsPerWriterPerRound, MaxWriterRounds);
        });
    }

    // Sessions join `opened` one by one, so a failure halfway still closes those already open.
    private static IOrderSession[] OpenSessions(IOrderStore store, int count, DisposableList<IDisposable> opened)
    {
        var sessions = new IOrderSession[count];
        for (var i = 0; i < count; i++)
        {
            sessions[i] = store.OpenSession();
            opened.Add(sessions[i]);
        }

        return sessions;
    }

    // A miss means an engine adapter is wrong; timing it would publish a meaningless figure.
    private static void Require(bool succeeded)
    {
        if (!succeeded)
        {
            throw new InvalidOperationException("An operation the scenario relies on did not find its document.");
        }
    }

    private static void Require(CustomerOrder? found)
    {
        if (found is null)
        {
            throw new InvalidOperationException("A lookup of a stored id found nothing.");
        }
    }
}
