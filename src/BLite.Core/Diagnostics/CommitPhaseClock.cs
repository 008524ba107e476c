using System.Diagnostics;

namespace BLite.Core.Diagnostics;

/// <summary>
/// Timestamps of the phases of the last write commit (writer slot, seal, frames, the log's
/// filler, the log write, the engine lock), for <c>manual --commit-latency --profile-tails</c>,
/// which reads them after each commit to tell which phase a slow commit spent its time in.
/// Off unless the benchmark sets <see cref="Enabled"/>; it then assumes one committing thread.
/// Off, each point costs one static read and a branch on the commit path.
/// </summary>
internal static class CommitPhaseClock
{
    public static bool Enabled;
    public static long SlotWanted;
    public static long SlotTaken;
    public static long AppendStart;
    public static long Sealed;
    public static long FramesBuilt;
    public static long FillerDone;
    public static long Written;
    public static long LockWanted;
    public static long LockEntered;
    public static long LockLeft;
    public static bool PieceInFlightAtWrite;
    public static long PiecesBeforeWrite;
    public static long PiecesAfterWrite;
    public static readonly uint[] PageIds = new uint[8];
    public static int PageCount;

    public static long Now() => Stopwatch.GetTimestamp();
}
