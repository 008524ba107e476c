using System.Diagnostics;
using BLite.Core.Storage.Devices;

namespace BLite.Core.Storage.Wal;

/// <summary>
/// Keeps the log file zero-filled ahead of its appends, on a thread-pool thread, so that a commit
/// overwrites blocks the file already has instead of growing it (docs/storage.md, "WAL file reuse
/// and preallocation"). Growing a file costs the commit that does it block allocation, new cache
/// pages and an inode update (and at Full durability a journalled size change in its flush).
/// The file is filled in pieces; an append that reaches into the piece being written waits for
/// it, since zeros landing after its frames would erase them. An append that finds no room and no
/// piece in its way extends the file itself, as every append did before.
/// </summary>
internal sealed class LogPreallocator
{
    /// <summary>One write of zeros: what an append that catches up with the filler waits for at most.</summary>
    internal const int PieceBytes = 64 * 1024;

    private static readonly ReadOnlyMemory<byte>[] Piece = [new byte[PieceBytes]];

    private readonly IStorageDevice _device;
    private readonly long _limit;
    private readonly long _ahead;
    private readonly bool _inline;
    private readonly object _gate = new();
    private long _allocated;
    private long _reserved;
    private bool _reservationRefused;
    private long _wanted;
    private long _growingAppends;
    private long _filledBytes;
    private bool _filling;
    private bool _pieceInFlight;
    private bool _stopped;
    private Exception? _failure;

    /// <param name="limit">The file is never filled past this (0: never filled ahead).</param>
    /// <param name="ahead">How far past the end of the appends the filler keeps the file allocated.</param>
    /// <param name="inline">
    /// Fill on the appender's thread, before its write: tests on fault-injecting devices number
    /// their power cuts by I/O operation and need the same order of writes on every run.
    /// </param>
    public LogPreallocator(IStorageDevice device, long limit, long ahead, bool inline = false)
    {
        _device = device;
        _limit = limit;
        _ahead = ahead;
        _inline = inline;
        _allocated = device.Length;
    }

    /// <summary>Appends that found the file too short and extended it themselves.</summary>
    public long GrowingAppends => Interlocked.Read(ref _growingAppends);

    /// <summary>Whether a piece is being written now (the commit-latency benchmark's tail profile reads it).</summary>
    public bool PieceInFlight => Volatile.Read(ref _pieceInFlight);

    /// <summary>Pieces started so far.</summary>
    public long PiecesStarted => Interlocked.Read(ref _piecesStarted);

    /// <summary>Stopwatch ticks spent in the pieces' writes.</summary>
    public long PieceTicks => Interlocked.Read(ref _pieceTicks);

    private long _piecesStarted;
    private long _pieceTicks;

    /// <summary>Zeros written ahead of the appends.</summary>
    public long FilledBytes => Interlocked.Read(ref _filledBytes);

    /// <summary>
    /// Called by the appender before it writes up to <paramref name="end"/>: waits for a piece in
    /// its way and asks for the file to be filled further ahead once the appends come near its end.
    /// Throws the filler's failure, if it met one: an I/O error on the log is never passed over.
    /// </summary>
    public void BeforeAppend(long end)
    {
        // Far from the allocated end there is nothing to wait for (pieces start there) or to ask.
        if (end + (_ahead / 2) <= Volatile.Read(ref _allocated))
        {
            return;
        }

        var fillHere = false;
        lock (_gate)
        {
            if (_failure is { } failure)
            {
                throw new IOException($"Zero-filling the write-ahead log ahead of its appends failed ({failure.Message}).", failure);
            }

            while (_pieceInFlight && end > _allocated)
            {
                Monitor.Wait(_gate);
            }

            if (end > _allocated)
            {
                Volatile.Write(ref _allocated, end);
                _growingAppends++;
            }

            _wanted = Math.Max(_wanted, Math.Min(_limit, end + _ahead));
            if (!_filling && !_stopped && _wanted > _allocated)
            {
                _filling = true;
                fillHere = _inline;
                if (!_inline)
                {
                    ThreadPool.UnsafeQueueUserWorkItem(static preallocator => preallocator.Fill(), this, preferLocal: false);
                }
            }
        }

        if (fillHere)
        {
            Fill();
            lock (_gate)
            {
                // Written by the appender itself, the zeros' failure is its own.
                if (_failure is { } failure)
                {
                    throw new IOException($"Zero-filling the write-ahead log ahead of its appends failed ({failure.Message}).", failure);
                }
            }
        }
    }

    /// <summary>
    /// Cuts the file to <paramref name="length"/> once no piece is being written (one landing
    /// after the cut would grow the file again). Called by the appender, or at close.
    /// </summary>
    public void Truncate(long length)
    {
        Pause();
        try
        {
            _device.SetLength(length);
        }
        finally
        {
            lock (_gate)
            {
                Volatile.Write(ref _allocated, Math.Min(_allocated, length));
                _reserved = Math.Min(_reserved, length);
                _wanted = _allocated;
                _stopped = false;
            }
        }
    }

    /// <summary>Stops filling for good (the device is about to close) once the piece in flight, if any, is written.</summary>
    public void Stop() => Pause();

    /// <summary>Returns once the filler has caught up with what was asked (or stopped, or failed). For tests.</summary>
    public void WaitUntilIdle()
    {
        lock (_gate)
        {
            while (_filling)
            {
                Monitor.Wait(_gate);
            }
        }
    }

    private void Pause()
    {
        lock (_gate)
        {
            _stopped = true;
            while (_pieceInFlight)
            {
                Monitor.Wait(_gate);
            }
        }
    }

    /// <summary>
    /// Allocates the blocks up to <paramref name="to"/> in one call before the pieces zero them: a
    /// piece then only fills the page cache and holds the inode lock, which a commit's log write
    /// also needs, for less time; it still creates the large cache pages (one per piece) that make
    /// every later generation's overwrites cheap, which a reservation alone or an append does not
    /// (BENCHMARKS.md, "The log filler's pieces on reserved blocks"). Refused
    /// once (not Linux, a file system without it, no space), it is not tried again; the pieces
    /// then allocate as they did before, and meet a real failure themselves.
    /// </summary>
    private void Reserve(long from, long to)
    {
        var reserved = _device.Reserve(from, to - from);
        lock (_gate)
        {
            _reservationRefused |= !reserved;
            _reserved = reserved ? Math.Max(_reserved, to) : _reserved;
        }
    }

    private void Fill()
    {
        while (true)
        {
            long from;
            int length;
            long reserveTo;
            lock (_gate)
            {
                if (_stopped || _allocated >= _wanted)
                {
                    _filling = false;
                    Monitor.PulseAll(_gate);
                    return;
                }

                from = _allocated;
                length = (int)Math.Min(PieceBytes, _wanted - from);
                // A whole distance ahead at once: the stretch asked for grows by each append's
                // frames while its pieces are written, and reserving only that would add a small
                // call after every stretch.
                reserveTo = _reservationRefused || from + length <= _reserved ? 0 : Math.Min(_limit, from + _ahead);
                _pieceInFlight = true;
                Interlocked.Increment(ref _piecesStarted);
            }

            Exception? failure = null;
            try
            {
                var started = Stopwatch.GetTimestamp();
                if (reserveTo > 0)
                {
                    Reserve(from, reserveTo);
                }

                _device.Write(from, length == PieceBytes ? Piece : [Piece[0][..length]]);
                Interlocked.Add(ref _pieceTicks, Stopwatch.GetTimestamp() - started);
            }
            catch (Exception exception)
            {
                // Nothing may escape a thread-pool item; the next append reports it.
                failure = exception;
            }

            lock (_gate)
            {
                _pieceInFlight = false;
                if (failure is null)
                {
                    Volatile.Write(ref _allocated, Math.Max(_allocated, from + length));
                    _filledBytes += length;
                }
                else
                {
                    _failure = failure;
                    _filling = false;
                }

                Monitor.PulseAll(_gate);
                if (failure is not null)
                {
                    return;
                }
            }
        }
    }
}
