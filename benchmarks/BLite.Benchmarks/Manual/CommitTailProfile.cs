using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Globalization;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Core.Diagnostics;
using BLite.Core.Storage;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// <c>manual --commit-latency N --profile-tails</c>: what each commit overlapped, read just
/// before and after it, outside its timed region, so the slowest 0.1% can be set against all the
/// others: a garbage collection (which generation, how long the runtime paused), for BLite a
/// background checkpoint running, finishing (its last part holds the writer slot) or making the
/// commit wait (back-pressure), the log file growing, and the longest log fsync (BLite's own
/// telemetry) during the commit. What none of these explains is left to the scheduler.
/// </summary>
internal sealed class CommitTailProfile : IDisposable
{
    private const double TailFraction = 0.001;
    private const int MinTail = 10;

    private readonly StorageEngine? _engine;
    private readonly Overlap[] _overlaps;
    private readonly MeterListener? _fsyncListener;
    private long _longestFsyncTicks;
    private Mark _before;

    public CommitTailProfile(IOrderStore store, int count)
    {
        _engine = (store as BLiteOrderStore)?.Storage;
        _overlaps = new Overlap[count];
        if (_engine is not null)
        {
            _fsyncListener = new MeterListener
            {
                InstrumentPublished = (instrument, listener) =>
                {
                    if (ReferenceEquals(instrument, BLiteTelemetry.FsyncDuration))
                    {
                        listener.EnableMeasurementEvents(instrument);
                    }
                },
            };
            _fsyncListener.SetMeasurementEventCallback<double>((_, seconds, _, _) =>
            {
                var ticks = (long)(seconds * TimeSpan.TicksPerSecond);
                long seen;
                while (ticks > (seen = Interlocked.Read(ref _longestFsyncTicks)) && Interlocked.CompareExchange(ref _longestFsyncTicks, ticks, seen) != seen)
                {
                }
            });
            _fsyncListener.Start();
        }
    }

    public void Before()
    {
        Interlocked.Exchange(ref _longestFsyncTicks, 0);
        _before = Capture();
    }

    public void After(int index)
    {
        var after = Capture();
        _overlaps[index] = new Overlap(
            after.GcPause - _before.GcPause,
            after.Gen0 - _before.Gen0,
            after.Gen1 - _before.Gen1,
            after.Gen2 - _before.Gen2,
            _before.CheckpointRunning || after.CheckpointRunning,
            after.Checkpoints > _before.Checkpoints,
            after.BackPressureWaits > _before.BackPressureWaits,
            after.WalLength > _before.WalLength,
            Interlocked.Read(ref _longestFsyncTicks));
    }

    /// <summary>Writes, for the slowest 0.1% of <paramref name="ticks"/> and for all commits, how many overlapped each event.</summary>
    public void Report(string engine, string durability, long[] ticks, TextWriter output)
    {
        var order = Enumerable.Range(0, ticks.Length).OrderByDescending(i => ticks[i]).ToArray();
        var tail = order.Take(Math.Max(MinTail, (int)(ticks.Length * TailFraction))).ToArray();
        var median = ticks[order[ticks.Length / 2]];
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"tail profile {durability} {engine}: slowest {tail.Length} of {ticks.Length:N0} commits ({Micros(ticks[tail[^1]])} to {Micros(ticks[tail[0]])}; median {Micros(median)})"));
        Line("a GC ran", i => _overlaps[i].Gen0 > 0);
        Line("a gen1 or gen2 GC ran", i => _overlaps[i].Gen1 > 0);
        Line("a gen2 GC ran", i => _overlaps[i].Gen2 > 0);
        Line("GC pause > half the commit", i => _overlaps[i].GcPause * 2 > StopwatchToTimeSpanTicks(ticks[i]));
        if (_engine is not null)
        {
            Line("background checkpoint running", i => _overlaps[i].CheckpointRunning);
            Line("checkpoint finished during it (writer slot)", i => _overlaps[i].CheckpointFinished);
            Line("back-pressure wait", i => _overlaps[i].BackPressure);
            Line("log file grew", i => _overlaps[i].WalGrew);
            Line("log fsync > half the commit", i => _overlaps[i].LongestFsync * 2 > StopwatchToTimeSpanTicks(ticks[i]));
        }

        Line("none of the above", i =>
        {
            var o = _overlaps[i];
            return o.Gen0 == 0 && !o.CheckpointRunning && !o.CheckpointFinished && !o.BackPressure && !o.WalGrew && o.LongestFsync * 2 <= StopwatchToTimeSpanTicks(ticks[i]);
        });
        output.WriteLine("  slowest ten: " + string.Join("; ", tail.Take(10).Select(i => Describe(i, ticks[i]))));

        void Line(string what, Func<int, bool> overlapped)
        {
            var inTail = tail.Count(overlapped);
            var inAll = Enumerable.Range(0, ticks.Length).Count(overlapped);
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  {what,-46} tail {inTail,5} ({100.0 * inTail / tail.Length,5:0.0}%)   all {inAll,7:N0} ({100.0 * inAll / ticks.Length,5:0.00}%)"));
        }
    }

    public void Dispose() => _fsyncListener?.Dispose();

    private string Describe(int i, long ticks)
    {
        var o = _overlaps[i];
        var parts = new List<string> { $"#{i} {Micros(ticks)}" };
        if (o.Gen0 > 0)
        {
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"GC gen{(o.Gen2 > 0 ? 2 : o.Gen1 > 0 ? 1 : 0)} pause {o.GcPause / 10.0:0} µs"));
        }

        if (o.CheckpointFinished)
        {
            parts.Add("checkpoint finish");
        }
        else if (o.CheckpointRunning)
        {
            parts.Add("checkpoint copying");
        }

        if (o.BackPressure)
        {
            parts.Add("back-pressure");
        }

        if (o.WalGrew)
        {
            parts.Add("log grew");
        }

        if (o.LongestFsync > 0)
        {
            parts.Add(string.Create(CultureInfo.InvariantCulture, $"fsync {o.LongestFsync / 10.0:0} µs"));
        }

        return string.Join(", ", parts);
    }

    private static long StopwatchToTimeSpanTicks(long stopwatchTicks) => stopwatchTicks * TimeSpan.TicksPerSecond / Stopwatch.Frequency;

    private static string Micros(long stopwatchTicks)
    {
        var micros = stopwatchTicks * 1e6 / Stopwatch.Frequency;
        return micros >= 1000 ? string.Create(CultureInfo.InvariantCulture, $"{micros / 1000:0.00} ms") : string.Create(CultureInfo.InvariantCulture, $"{micros:0.0} µs");
    }

    private Mark Capture() => new(
        GC.GetTotalPauseDuration().Ticks,
        GC.CollectionCount(0),
        GC.CollectionCount(1),
        GC.CollectionCount(2),
        _engine is not null && !_engine.BackgroundCheckpointTask.IsCompleted,
        _engine?.BackgroundCheckpoints ?? 0,
        _engine?.BackPressureWaits ?? 0,
        _engine?.WalDeviceLength ?? 0);

    private readonly record struct Mark(long GcPause, int Gen0, int Gen1, int Gen2, bool CheckpointRunning, long Checkpoints, long BackPressureWaits, long WalLength);

    private readonly record struct Overlap(long GcPause, int Gen0, int Gen1, int Gen2, bool CheckpointRunning, bool CheckpointFinished, bool BackPressure, bool WalGrew, long LongestFsync);
}
