using BLite.Benchmarks.Comparison;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Manual;

internal sealed partial class ManualRunner
{
    private void RunFindById(IOrderStore store)
    {
        var keys = _data.LookupKeys;
        var mask = keys.Length - 1;
        Record("find-by-id", store, _timer.Measure(int.MaxValue, i => Require(store.FindById(keys[i & mask]))));
        Record("find-by-id-loop-1000", store, _timer.Measure(int.MaxValue, i =>
        {
            var start = i * FindByIdLoopBenchmark.Lookups;
            for (var j = 0; j < FindByIdLoopBenchmark.Lookups; j++)
            {
                Require(store.FindById(keys[(start + j) & mask]));
            }
        }));
    }

    private void RunScan(IOrderStore store, string scenario)
    {
        var found = new List<CustomerOrder>();
        Record(scenario, store, _timer.Measure(int.MaxValue, _ =>
        {
            found.Clear();
            if (store.FindByStatus(ComparisonDataset.ScannedStatus, found) == 0)
            {
                throw new InvalidOperationException($"{store.Engine} found no '{ComparisonDataset.ScannedStatus}' order.");
            }
        }));
    }

    private void RunUpdate(IOrderStore store)
    {
        var samples = _data.Samples;
        Record("update-single", store, _timer.Measure(int.MaxValue, i =>
        {
            var order = samples[i % samples.Length];
            order.Shipping.EstimatedDelivery = order.Shipping.EstimatedDelivery.AddHours(1);
            Require(store.Update(order));
        }));
    }

    // Each deleted order is put back outside the timed region, so every delete hits a present
    // document and the dataset keeps its size.
    private void RunDelete(IOrderStore store)
    {
        var samples = _data.Samples;
        Record("delete-single", store, _timer.Measure(
            int.MaxValue,
            i => Require(store.Delete(samples[i % samples.Length].Id)),
            i => store.Insert(samples[i % samples.Length])));
    }

    private void RunInsertSingle(IOrderStore store)
    {
        var orders = _singleInserts;
        Record("insert-single", store, _timer.Measure(orders.Length, i => store.Insert(orders[i])));
    }

    private void RunInsertBatch(IOrderStore store)
    {
        var batches = _batches;
        Record($"insert-batch-{BatchSize}", store, _timer.Measure(batches.Length, i => store.InsertBatch(batches[i])));
    }

    private void RunLargeDocuments(IOrderStore store)
    {
        foreach (var payload in LargePayloadBytes)
        {
            var orders = _largeOrders[payload];
            var label = $"{payload / 1024}kb";
            var inserted = _timer.Measure(orders.Length, i => store.Insert(orders[i]));
            Record($"insert-large-{label}", store, inserted);

            var stored = inserted.OperationsConsumed;
            Record($"find-by-id-large-{label}", store, _timer.Measure(int.MaxValue, i => Require(store.FindById(orders[i % stored].Id))));
        }
    }

    private void RunConcurrentReaders(IOrderStore store)
    {
        var keys = _data.LookupKeys;
        var mask = keys.Length - 1;
        foreach (var readers in ReaderCounts)
        {
            var sessions = OpenSessions(store, readers);
            try
            {
                using var rounds = new ConcurrentRounds(readers, (thread, round) =>
                {
                    var session = sessions[thread];
                    var start = (thread * 997) + (round * FindsPerReaderPerRound);
                    for (var i = 0; i < FindsPerReaderPerRound; i++)
                    {
                        Require(session.FindById(keys[(start + i) & mask]));
                    }
                });
                var scenario = readers == 1 ? "find-by-id-1-reader" : $"find-by-id-{readers}-readers";
                Record(scenario, store, _timer.MeasureRounds(rounds, readers * FindsPerReaderPerRound, int.MaxValue));
            }
            finally
            {
                DisposeAll(sessions);
            }
        }
    }

    private void RunConcurrentWriters(IOrderStore store)
    {
        var orders = _writerOrders;
        var sessions = OpenSessions(store, WriterCount);
        try
        {
            using var rounds = new ConcurrentRounds(WriterCount, (thread, round) =>
            {
                var session = sessions[thread];
                var first = ((round * WriterCount) + thread) * CommitsPerWriterPerRound;
                for (var i = 0; i < CommitsPerWriterPerRound; i++)
                {
                    session.Insert(orders[first + i]);
                }
            });
            Record($"durable-commit-{WriterCount}-writers", store, _timer.MeasureRounds(rounds, WriterCount * CommitsPerWriterPerRound, MaxWriterRounds));
        }
        finally
        {
            DisposeAll(sessions);
        }
    }

    private static IOrderSession[] OpenSessions(IOrderStore store, int count)
    {
        var sessions = new IOrderSession[count];
        for (var i = 0; i < count; i++)
        {
            sessions[i] = store.OpenSession();
        }

        return sessions;
    }

    private static void DisposeAll(IOrderSession[] sessions)
    {
        foreach (var session in sessions)
        {
            session?.Dispose();
        }
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
