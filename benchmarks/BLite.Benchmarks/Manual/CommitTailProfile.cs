using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Globalization;
using BLite.Core.Diagnostics;
using BLite.Core.Storage;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// What each timed commit waited for, read just before and after it, outside its timed region:
/// a garbage collection (its pause), for BLite a background checkpoint finishing (its last part
/// holds the writer slot), back-pressure, the commit growing the log file itself (not the
/// zero-filling ahead of it on another thread) and the longest log fsync (BLite's
/// own telemetry), and for every engine the thread's CPU time, context switches and page faults.
/// Each commit is put under the first cause that explains at least half of its wall time
/// (<see cref="Cause"/>), so the slowest 20 and the slowest 1% can be set against all commits.
/// Wall time the thread spent off the CPU after an involuntary switch is the scheduler's: the
/// thread was runnable and waited for a core.
/// </summary>
internal sealed class CommitTailProfile : IDisposable
{
    private const double TailFraction = 0.01;
    private const int Slowest = 20;

    private static readonly string[] CauseNames =
    [
        "GC pause",
        "back-pressure",
        "checkpoint finish (writer slot)",
        "log fsync",
        "preempted (waited for a core)",
        "blocked (lock or I/O)",
        "off CPU, no switch (hypervisor)",
        "major page fault",
        "log file grew",
        "on CPU, page faults",
        "on CPU beside checkpoint copy",
        "on CPU (own work)",
    ];

    private readonly StorageEngine? _engine;
    private readonly Overlap[] _overlaps;
    private readonly MeterListener? _fsyncListener;
    private long _longestFsyncTicks;
    private Mark _before;
    private long _beganTs;
    private readonly long[]? _phases;
    private readonly bool[]? _fillerBeside;
    private const int PhaseCount = 10;
    private static readonly string[] PhaseNames = ["document+tree", "seal", "frames+crc", "filler wait", "log write", "lock wait", "locked", "after", "before slot", "slot wait"];

    public CommitTailProfile(StorageEngine? engine, int count)
    {
        _engine = engine;
        _overlaps = new Overlap[count];
        if (_engine is not null)
        {
            _phases = new long[count * PhaseCount];
            _fillerBeside = new bool[count];
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

    /// <summary>Causes, in the order a commit is tested against them.</summary>
    public enum Cause
    {
        GcPause,
        BackPressure,
        CheckpointFinish,
        LogFsync,
        Preempted,
        Blocked,
        OffCpuNoSwitch,
        MajorFault,
        LogGrew,
        OnCpuFaulting,
        OnCpuBesideCheckpoint,
        OnCpu,
    }

    /// <summary>The table's header: one column per cause.</summary>
    public static string TableHeader =>
        "| Durability | Engine | Commits | From | " + string.Join(" | ", CauseNames) + " |" + Environment.NewLine +
        "|---|---|---|---:|" + string.Concat(Enumerable.Repeat("---:|", CauseNames.Length));

    public void Before()
    {
        Interlocked.Exchange(ref _longestFsyncTicks, 0);
        _before = Capture(0) with { CpuNs = ThreadCpuClock.NowNs() };
        _filledBefore = _engine?.WalZeroFilledBytes ?? 0;
        _beganTs = Stopwatch.GetTimestamp();
    }

    private long _filledBefore;
    private readonly List<(int Index, string Pages)> _oddCommits = [];

    public void After(int index)
    {
        if (_phases is not null && BLite.Core.Diagnostics.CommitPhaseClock.Enabled)
        {
            var endTs = Stopwatch.GetTimestamp();
            var p = _phases.AsSpan(index * PhaseCount, PhaseCount);
            p[0] = BLite.Core.Diagnostics.CommitPhaseClock.AppendStart - _beganTs;
            p[1] = BLite.Core.Diagnostics.CommitPhaseClock.Sealed - BLite.Core.Diagnostics.CommitPhaseClock.AppendStart;
            p[2] = BLite.Core.Diagnostics.CommitPhaseClock.FramesBuilt - BLite.Core.Diagnostics.CommitPhaseClock.Sealed;
            p[3] = BLite.Core.Diagnostics.CommitPhaseClock.FillerDone - BLite.Core.Diagnostics.CommitPhaseClock.FramesBuilt;
            p[4] = BLite.Core.Diagnostics.CommitPhaseClock.Written - BLite.Core.Diagnostics.CommitPhaseClock.FillerDone;
            p[5] = BLite.Core.Diagnostics.CommitPhaseClock.LockEntered - BLite.Core.Diagnostics.CommitPhaseClock.LockWanted;
            p[6] = BLite.Core.Diagnostics.CommitPhaseClock.LockLeft - BLite.Core.Diagnostics.CommitPhaseClock.LockEntered;
            p[7] = endTs - BLite.Core.Diagnostics.CommitPhaseClock.LockLeft;
            p[8] = BLite.Core.Diagnostics.CommitPhaseClock.SlotWanted - _beganTs;
            p[9] = BLite.Core.Diagnostics.CommitPhaseClock.SlotTaken - BLite.Core.Diagnostics.CommitPhaseClock.SlotWanted;
            _fillerBeside![index] = BLite.Core.Diagnostics.CommitPhaseClock.PieceInFlightAtWrite || BLite.Core.Diagnostics.CommitPhaseClock.PiecesAfterWrite != BLite.Core.Diagnostics.CommitPhaseClock.PiecesBeforeWrite
                || _engine!.WalZeroFilledBytes != _filledBefore;
            var pc = BLite.Core.Diagnostics.CommitPhaseClock.PageCount;
            if (pc != 1 && pc != 3 && _oddCommits.Count < 400)
            {
                _oddCommits.Add((index, string.Join(",", BLite.Core.Diagnostics.CommitPhaseClock.PageIds.Take(Math.Min(pc, 8)))));
            }
        }

        var cpuNs = ThreadCpuClock.NowNs();
        var after = Capture(cpuNs);
        _overlaps[index] = new Overlap(
            after.GcPause - _before.GcPause,
            after.Gen0 - _before.Gen0,
            after.Gen1 - _before.Gen1,
            after.Gen2 - _before.Gen2,
            _before.CheckpointRunning || after.CheckpointRunning,
            after.Checkpoints > _before.Checkpoints,
            after.BackPressureWaits > _before.BackPressureWaits,
            after.GrowingAppends > _before.GrowingAppends,
            Interlocked.Read(ref _longestFsyncTicks),
            after.CpuNs - _before.CpuNs,
            (int)(after.Usage.VoluntarySwitches - _before.Usage.VoluntarySwitches),
            (int)(after.Usage.InvoluntarySwitches - _before.Usage.InvoluntarySwitches),
            (int)(after.Usage.MinorFaults - _before.Usage.MinorFaults),
            (int)(after.Usage.MajorFaults - _before.Usage.MajorFaults),
            Math.Max(0, after.WalEnd - _before.WalEnd));
    }

    /// <summary>The commit's first cause that explains at least half of its <paramref name="ticks"/> (Stopwatch ticks) of wall time.</summary>
    public Cause CauseOf(int i, long ticks)
    {
        var o = _overlaps[i];
        var half = StopwatchToTimeSpanTicks(ticks) / 2;
        var offCpu = StopwatchToTimeSpanTicks(ticks) - (o.CpuNs / 100);
        if (o.GcPause > half)
        {
            return Cause.GcPause;
        }

        if (o.BackPressure)
        {
            return Cause.BackPressure;
        }

        if (o.CheckpointFinished)
        {
            return Cause.CheckpointFinish;
        }

        if (o.LongestFsync > half)
        {
            return Cause.LogFsync;
        }

        if (ThreadCpuClock.IsAvailable && offCpu > half)
        {
            return o.Involuntary > 0 ? Cause.Preempted : o.Voluntary > 0 ? Cause.Blocked : Cause.OffCpuNoSwitch;
        }

        return o.MajorFaults > 0 ? Cause.MajorFault
            : o.WalGrew ? Cause.LogGrew
            : o.MinorFaults > 0 ? Cause.OnCpuFaulting
            : o.CheckpointRunning ? Cause.OnCpuBesideCheckpoint
            : Cause.OnCpu;
    }

    /// <summary>
    /// Three rows of the tail-cause table: the slowest 20 (counts), the slowest 1% and all commits
    /// (shares), each commit under its <see cref="CauseOf"/>.
    /// </summary>
    public void WriteRows(string engine, string durability, long[] ticks, TextWriter output)
    {
        var order = Enumerable.Range(0, ticks.Length).OrderByDescending(i => ticks[i]).ToArray();
        var tailLength = Math.Max(Slowest, (int)(ticks.Length * TailFraction));
        var causes = order.Select(i => CauseOf(i, ticks[i])).ToArray();
        Row($"slowest {Slowest}", Math.Min(Slowest, order.Length), asCount: true);
        Row($"slowest {TailFraction * 100:0.#}%", Math.Min(tailLength, order.Length), asCount: false);
        Row("all", order.Length, asCount: false);

        void Row(string set, int length, bool asCount)
        {
            var counts = new int[CauseNames.Length];
            for (var k = 0; k < length; k++)
            {
                counts[(int)causes[k]]++;
            }

            var cells = counts.Select(count => count == 0 ? "" : asCount
                ? count.ToString(CultureInfo.InvariantCulture)
                : string.Create(CultureInfo.InvariantCulture, $"{100.0 * count / length:0.0}%"));
            output.WriteLine($"| {durability} | {engine} | {set} | {Micros(ticks[order[length - 1]])} | {string.Join(" | ", cells)} |");
        }
    }

    /// <summary>The slowest commits one by one: wall and CPU time, switches, faults and what overlapped them.</summary>
    public void WriteSlowest(string engine, string durability, long[] ticks, TextWriter output)
    {
        var order = Enumerable.Range(0, ticks.Length).OrderByDescending(i => ticks[i]).ToArray();
        output.WriteLine($"slowest {Slowest} {durability} {engine}: " + string.Join("; ", order.Take(Slowest).Select(i => Describe(i, ticks[i]))));
        var tail = order.Take(Math.Max(Slowest, (int)(ticks.Length * TailFraction))).ToArray();
        var tenths = new int[10];
        foreach (var i in tail)
        {
            tenths[Math.Min(9, i * 10 / ticks.Length)]++;
        }

        output.WriteLine($"  where the slowest {tail.Length} fall, by tenth of the run: {string.Join(" ", tenths)}");
        var slow = SlowThreshold(ticks);
        var head = Math.Max(1, ticks.Length / 50);
        var step = Math.Max(1, head / 10);
        output.WriteLine($"  commits above 3× p50 in the first {head:N0}, per {step:N0}: " + string.Join(" ", Enumerable.Range(0, (head + step - 1) / step)
            .Select(block => Enumerable.Range(block * step, Math.Min(step, head - (block * step))).Count(i => ticks[i] > slow))));
        WriteCheckpointFinishes(engine, durability, ticks, output);
        if (_engine is not null)
        {
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  log appended per commit: slowest {tail.Length} {tail.Average(i => _overlaps[i].LogBytes) / 1024:0.0} KB, all {_overlaps.Average(o => o.LogBytes) / 1024:0.0} KB"));
            var inSlowest = tail.ToHashSet();
            output.WriteLine("  by log appended (commits, share of the slowest, p50, p99): " + string.Join("; ", Enumerable.Range(0, ticks.Length)
                .GroupBy(i => (_overlaps[i].LogBytes + 4095) / 8192)
                .OrderBy(group => group.Key)
                .Select(group =>
                {
                    var sorted = group.Select(i => ticks[i]).Order().ToArray();
                    var inTail = group.Count(inSlowest.Contains);
                    return string.Create(CultureInfo.InvariantCulture,
                        $"{group.Key * 8} KB: {sorted.Length} ({100.0 * inTail / tail.Length:0.0}%) {Micros(sorted[sorted.Length / 2])} / {Micros(sorted[Math.Min(sorted.Length - 1, (int)(sorted.Length * 0.99))])}");
                })));
        }
    }

    /// <summary>The header of <see cref="WriteFrameRows"/>' table.</summary>
    public static string FrameTableHeader =>
        "| Durability | Frames appended | Commits | p50 | p90 | p99 | Above 3× p50 (all commits') | Share of those |" + Environment.NewLine +
        "|---|---|---:|---:|---:|---:|---:|---:|";

    /// <summary>
    /// The engine's commits grouped by page frames appended to the log (one for a document that
    /// fits its leaf, more for a split), each group's distribution and how many of its commits
    /// took more than three times the median of all commits. A log restarted during the commit
    /// shows as "?".
    /// </summary>
    public void WriteFrameRows(string durability, long[] ticks, TextWriter output)
    {
        if (_engine is null)
        {
            return;
        }

        var frameSize = BLite.Core.Storage.Wal.WalFormat.FrameSize(_engine.PageSize);
        var slow = SlowThreshold(ticks);
        var slowTotal = Math.Max(1, ticks.Count(t => t > slow));
        foreach (var group in Enumerable.Range(0, ticks.Length).GroupBy(i => (_overlaps[i].LogBytes + frameSize - 1) / frameSize).OrderBy(group => group.Key))
        {
            var sorted = group.Select(i => ticks[i]).Order().ToArray();
            var above = sorted.Count(t => t > slow);
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {durability} | {(group.Key == 0 ? "?" : group.Key.ToString(CultureInfo.InvariantCulture))} | {sorted.Length:N0} ({100.0 * sorted.Length / ticks.Length:0.0}%) | {Micros(At(sorted, 0.50))} | {Micros(At(sorted, 0.90))} | {Micros(At(sorted, 0.99))} | {above:N0} | {100.0 * above / slowTotal:0.0}% |"));
        }
    }

    /// <summary>
    /// Where the commits above three times the median fall: in the first <paramref name="headShare"/>
    /// of the run (a new store's first commits) or after it, as counts and as a rate per commit.
    /// </summary>
    public string PositionRow(string engine, string durability, long[] ticks, double headShare = 0.02)
    {
        var slow = SlowThreshold(ticks);
        var head = Math.Max(1, (int)(ticks.Length * headShare));
        var headSlow = Enumerable.Range(0, head).Where(i => ticks[i] > slow).ToArray();
        var inRest = ticks.AsSpan(head).ToArray().Count(t => t > slow);
        var rest = Math.Max(1, ticks.Length - head);
        return string.Create(CultureInfo.InvariantCulture,
            $"| {durability} | {engine} | {Micros(slow)} | {headSlow.Length + inRest:N0} | {headSlow.Length:N0} of {head:N0} ({100.0 * headSlow.Length / head:0.00}%) | {inRest:N0} of {rest:N0} ({100.0 * inRest / rest:0.00}%) | {CauseCounts(headSlow, ticks)} |");
    }

    /// <summary>The header of <see cref="PositionRow"/>'s table.</summary>
    public static string PositionTableHeader =>
        "| Durability | Engine | 3× p50 | Commits above it | In the first 2% | In the rest | Causes of those in the first 2% |" + Environment.NewLine +
        "|---|---|---:|---:|---:|---:|---|";

    private string CauseCounts(int[] commits, long[] ticks) => string.Join(", ", commits
        .GroupBy(i => CauseOf(i, ticks[i]))
        .OrderByDescending(group => group.Count())
        .Select(group => $"{CauseNames[(int)group.Key]} {group.Count()}"));

    /// <summary>
    /// The commits during which a background checkpoint finished (they may have waited for the
    /// finish's writer slot), and how long each finish held the slot, by part.
    /// </summary>
    public void WriteCheckpointFinishes(string engine, string durability, long[] ticks, TextWriter output)
    {
        if (_engine is null)
        {
            return;
        }

        var during = Enumerable.Range(0, ticks.Length).Where(i => _overlaps[i].CheckpointFinished).ToArray();
        output.WriteLine($"  commits during a checkpoint finish {durability} {engine} ({during.Length}): " + string.Join(", ", during.Select(i => $"#{i} {Micros(ticks[i])}")));
        output.WriteLine("  checkpoint finishes (writer slot held: log durable / copy + file flush / restart, pages copied): " + string.Join("; ", _engine.FinishTimesSinceOpen.Select(f =>
            string.Create(CultureInfo.InvariantCulture, $"{f.Log.TotalMilliseconds:0.00} / {f.Copy.TotalMilliseconds:0.00} / {f.Restart.TotalMilliseconds:0.00} ms, {f.Pages}"))));
        var wholes = _engine.FinishTimesSinceOpen.Select(f => f.Whole.TotalMilliseconds).Order().ToArray();
        if (wholes.Length > 0)
        {
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  background checkpoints {durability} {engine}: {_engine.BackgroundCheckpoints}, back-pressure waits {_engine.BackPressureWaits}, whole checkpoint (start to restart) p50 {wholes[wholes.Length / 2]:0.00} ms, max {wholes[^1]:0.00} ms, total {wholes.Sum():0} ms"));
        }
    }

    /// <summary>
    /// BLite's commits by phase (<see cref="BLite.Core.Diagnostics.CommitPhaseClock"/>): each phase's
    /// median; for the commits above 3× p50, in the first 2,000 and after, the phase that exceeds its
    /// own median the most; each frame count's mean per phase; the commits that are neither one nor
    /// three frames, with the pages they wrote; and the commits whose log write met the filler.
    /// </summary>
    public void WritePhases(string durability, long[] ticks, TextWriter output)
    {
        if (_phases is null || !BLite.Core.Diagnostics.CommitPhaseClock.Enabled)
        {
            return;
        }

        var n = ticks.Length;
        var slow = SlowThreshold(ticks);
        var medians = new long[PhaseCount];
        for (var k = 0; k < PhaseCount; k++)
        {
            medians[k] = At(Enumerable.Range(0, n).Select(i => _phases[(i * PhaseCount) + k]).Order().ToArray(), 0.5);
        }

        output.WriteLine($"filler: {_engine!.WalZeroFilledBytes / 1024} KiB zero-filled, {_engine.WalGrowingAppends} growing appends, {_engine.WalFillerWork.Pieces} pieces, mean piece write {Micros(_engine.WalFillerWork.Ticks / Math.Max(1, _engine.WalFillerWork.Pieces))}");
        output.WriteLine($"phases {durability}: medians " + string.Join(", ", Enumerable.Range(0, PhaseCount).Select(k => $"{PhaseNames[k]} {Micros(medians[k])}")));
        foreach (var (label, from, to) in new[] { ("first 2000", 0, Math.Min(n, 2000)), ("rest", Math.Min(n, 2000), n) })
        {
            var slowOnes = Enumerable.Range(from, to - from).Where(i => ticks[i] > slow).ToArray();
            var dominant = new int[PhaseCount];
            var sums = new double[PhaseCount];
            foreach (var i in slowOnes)
            {
                var best = 0;
                var bestExcess = long.MinValue;
                for (var k = 0; k < PhaseCount; k++)
                {
                    var v = _phases[(i * PhaseCount) + k];
                    sums[k] += v;
                    if (v - medians[k] > bestExcess)
                    {
                        bestExcess = v - medians[k];
                        best = k;
                    }
                }

                dominant[best]++;
            }

            output.WriteLine($"  slow in {label} ({slowOnes.Length}): dominant phase " + string.Join(", ", Enumerable.Range(0, PhaseCount).Where(k => dominant[k] > 0).Select(k => $"{PhaseNames[k]} {dominant[k]}")));
            if (slowOnes.Length > 0)
            {
                output.WriteLine($"    mean per phase: " + string.Join(", ", Enumerable.Range(0, PhaseCount).Select(k => $"{PhaseNames[k]} {Micros((long)(sums[k] / slowOnes.Length))}")));
            }
        }

        var frameSize = BLite.Core.Storage.Wal.WalFormat.FrameSize(_engine.PageSize);
        foreach (var group in Enumerable.Range(0, n).GroupBy(i => (_overlaps[i].LogBytes + frameSize - 1) / frameSize).OrderBy(g => g.Key))
        {
            var members = group.ToArray();
            output.WriteLine($"  {group.Key} frames ({members.Length}): mean per phase " + string.Join(", ", Enumerable.Range(0, PhaseCount).Select(k => $"{PhaseNames[k]} {Micros((long)members.Average(i => (double)_phases[(i * PhaseCount) + k]))}"))
                + $"; cpu mean {members.Average(i => _overlaps[i].CpuNs) / 1000.0:0.0} us");
        }

        output.WriteLine("  commits of other than 1 or 3 frames (pages written): " + string.Join("; ", _oddCommits.Take(30).Select(c => $"#{c.Index} {Micros(ticks[c.Index])} [{c.Pages}]")));
        for (var k = 0; k < PhaseCount; k++)
        {
            var over = Enumerable.Range(0, n).Where(i => _phases[(i * PhaseCount) + k] > slow / 3).ToArray();
            if (k == 4)
            {
                var beside = Enumerable.Range(0, n).Where(i => _fillerBeside![i]).ToArray();
                output.WriteLine($"  log writes beside a filler piece: {beside.Length} commits, {beside.Count(i => i < 2000)} in the first 2000; their log write p50 {(beside.Length == 0 ? "-" : Micros(At(beside.Select(i => _phases[(i * PhaseCount) + 4]).Order().ToArray(), 0.5)))}, {beside.Count(i => ticks[i] > slow)} slow; slow commits with a slow write (> p50) and no filler: {over.Count(i => !_fillerBeside![i] && ticks[i] > slow)}");
            }

            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {PhaseNames[k]} above p50 of commit ({Micros(slow / 3)}): {over.Length} commits, {over.Count(i => i < 2000)} in the first 2000, {over.Count(i => ticks[i] > slow)} of them slow"));
        }
    }

    public void Dispose() => _fsyncListener?.Dispose();

    private static long SlowThreshold(long[] ticks) => 3 * At(ticks.Order().ToArray(), 0.50);

    private static long At(long[] sorted, double quantile) => sorted[Math.Min(sorted.Length - 1, (int)(quantile * sorted.Length))];

    private string Describe(int i, long ticks)
    {
        var o = _overlaps[i];
        var parts = new List<string>
        {
            string.Create(CultureInfo.InvariantCulture, $"#{i} {Micros(ticks)} (CPU {o.CpuNs / 1000.0:0} µs, switches {o.Voluntary}v/{o.Involuntary}i, faults {o.MinorFaults}/{o.MajorFaults}, log {o.LogBytes / 1024.0:0.#} KB)"),
        };
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

        if (_phases is not null && BLite.Core.Diagnostics.CommitPhaseClock.Enabled)
        {
            var phases = _phases.AsSpan(i * PhaseCount, PhaseCount);
            var longest = 0;
            for (var phase = 1; phase < PhaseCount; phase++)
            {
                longest = phases[phase] > phases[longest] ? phase : longest;
            }

            parts.Add($"longest phase {PhaseNames[longest]} {Micros(phases[longest])}");
        }

        return string.Join(", ", parts);
    }

    private static long StopwatchToTimeSpanTicks(long stopwatchTicks) => stopwatchTicks * TimeSpan.TicksPerSecond / Stopwatch.Frequency;

    private static string Micros(long stopwatchTicks)
    {
        var micros = stopwatchTicks * 1e6 / Stopwatch.Frequency;
        return micros >= 1000 ? string.Create(CultureInfo.InvariantCulture, $"{micros / 1000:0.00} ms") : string.Create(CultureInfo.InvariantCulture, $"{micros:0.0} µs");
    }

    private Mark Capture(long cpuNs) => new(
        GC.GetTotalPauseDuration().Ticks,
        GC.CollectionCount(0),
        GC.CollectionCount(1),
        GC.CollectionCount(2),
        _engine is not null && !_engine.BackgroundCheckpointTask.IsCompleted,
        _engine?.BackgroundCheckpoints ?? 0,
        _engine?.BackPressureWaits ?? 0,
        _engine?.WalGrowingAppends ?? 0,
        ThreadUsage.Now(),
        cpuNs,
        _engine?.WalEnd ?? 0);

    private readonly record struct Mark(long GcPause, int Gen0, int Gen1, int Gen2, bool CheckpointRunning, long Checkpoints, long BackPressureWaits, long GrowingAppends, ThreadUsage.Sample Usage, long CpuNs, long WalEnd);

    private readonly record struct Overlap(
        long GcPause,
        int Gen0,
        int Gen1,
        int Gen2,
        bool CheckpointRunning,
        bool CheckpointFinished,
        bool BackPressure,
        bool WalGrew,
        long LongestFsync,
        long CpuNs,
        int Voluntary,
        int Involuntary,
        int MinorFaults,
        int MajorFaults,
        long LogBytes);
}
