using System.Diagnostics;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// The machine's floor for the commit latency distribution: an operation of about a commit's
/// median cost that does no I/O, takes no lock and allocates nothing (a fixed copy between two
/// buffers that stay in cache), timed the same way in the same blocks as the engines. Its
/// p99/p50 and max/p50 are what the shared machine's scheduler and caches allow at all; an
/// engine's tail beyond that is the engine's.
/// </summary>
internal sealed class MachineFloor
{
    public const string Name = "floor";
    private const int CopyBytes = 4096;
    private const int CalibrationRounds = 2000;

    private readonly byte[] _source = new byte[CopyBytes];
    private readonly byte[] _target = new byte[CopyBytes];
    private int _copies = 1;

    public MachineFloor()
    {
        Random.Shared.NextBytes(_source);
    }

    /// <summary>Copies per operation.</summary>
    public int Copies => _copies;

    /// <summary>Sets the copies per operation so one operation takes about <paramref name="targetTicks"/> (Stopwatch ticks).</summary>
    public void Calibrate(long targetTicks)
    {
        _copies = 1;
        var samples = new long[CalibrationRounds];
        for (var round = 0; round < CalibrationRounds; round++)
        {
            var began = Stopwatch.GetTimestamp();
            for (var i = 0; i < 64; i++)
            {
                Run();
            }

            samples[round] = Stopwatch.GetTimestamp() - began;
        }

        Array.Sort(samples);
        var perCopy = Math.Max(1.0, samples[CalibrationRounds / 2] / 64.0);
        _copies = (int)Math.Clamp(Math.Round(targetTicks / perCopy), 1, int.MaxValue);
    }

    public void Run()
    {
        for (var i = 0; i < _copies; i++)
        {
            _source.AsSpan().CopyTo(_target);
            _source[i & (CopyBytes - 1)] ^= _target[(i + 1) & (CopyBytes - 1)];
        }
    }
}
