namespace BLite.Benchmarks.Comparison;

/// <summary>
/// A fixed set of worker threads that run one round of work each time <see cref="RunRound"/> is
/// called, so concurrent scenarios time the work and not thread start-up. Workers are created
/// once and parked on a barrier between rounds.
/// </summary>
public sealed class ConcurrentRounds : IDisposable
{
    private readonly Barrier _barrier;
    private readonly Thread[] _threads;
    private readonly Action<int, int> _work;
    private volatile bool _stopping;
    private int _round;
    private Exception? _failure;

    /// <param name="work">Called as work(threadIndex, roundIndex) on every worker, once per round.</param>
    public ConcurrentRounds(int threadCount, Action<int, int> work)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(threadCount, 1);
        _work = work;
        _barrier = new Barrier(threadCount + 1);
        _threads = new Thread[threadCount];
        for (var i = 0; i < threadCount; i++)
        {
            var threadIndex = i;
            _threads[i] = new Thread(() => WorkerLoop(threadIndex)) { IsBackground = true, Name = $"bench-worker-{i}" };
            _threads[i].Start();
        }
    }

    public int ThreadCount => _threads.Length;

    /// <summary>Runs one round on every worker and returns when all have finished it.</summary>
    public void RunRound()
    {
        ObjectDisposedException.ThrowIf(_stopping, this);
        _barrier.SignalAndWait();   // release the workers
        _barrier.SignalAndWait();   // wait until each has finished its share
        _round++;
        if (_failure is { } failure)
        {
            throw new InvalidOperationException($"A worker failed in round {_round - 1}.", failure);
        }
    }

    public void Dispose()
    {
        if (_stopping)
        {
            return;
        }

        _stopping = true;
        _barrier.SignalAndWait();
        foreach (var thread in _threads)
        {
            thread.Join();
        }

        _barrier.Dispose();
    }

    private void WorkerLoop(int threadIndex)
    {
        while (true)
        {
            _barrier.SignalAndWait();
            if (_stopping)
            {
                return;
            }

            try
            {
                _work(threadIndex, _round);
            }
            catch (Exception exception)
            {
                // Kept and rethrown on the calling thread: an exception escaping a worker would end the process.
                Interlocked.CompareExchange(ref _failure, exception, null);
            }

            _barrier.SignalAndWait();
        }
    }
}
