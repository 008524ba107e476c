using System.Runtime.InteropServices;

namespace BLite.Core.ChangeFeed;

/// <summary>
/// Where a database's journaled transactions keep their log records (<see cref="JournalLogRecord"/>)
/// from the moment their events are encoded until the engine drops them after the checkpoint's
/// fold. A log record lives that long (often a whole checkpoint interval), so as separate arrays
/// every one of them would survive the young GC generations and be copied into the old one, only
/// to die there; carved out of a few large chunks that are reused, the records cost the GC nothing.
/// Chunks live on the pinned object heap, so the log's writes need not pin them one by one.
/// The writer-slot holder builds one record at a time at the end of the current chunk
/// (<see cref="Begin"/>, <see cref="Extend"/>); a commit keeps it (<see cref="Keep"/>), anything
/// else leaves its bytes to the next record. A chunk goes back to the spares once the engine has
/// released (<see cref="Release"/>) every record kept in it: the engine drops a record only when
/// no snapshot sees it any more, and readers touch a record's bytes only while their snapshot is
/// registered, as with page images.
/// </summary>
internal sealed class JournalArena
{
    /// <summary>Room for a few hundred typical events: one chunk per a few hundred single-insert commits.</summary>
    internal const int ChunkSize = 256 * 1024;

    /// <summary>Spare chunks kept for reuse; more than this many go back to the GC.</summary>
    private const int MaxSpareChunks = 16;

    // The chunks holding kept records, by array; guarded by itself, as are the spares.
    private readonly Dictionary<byte[], Chunk> _chunks = new(ReferenceEqualityComparer.Instance);
    private readonly Stack<Chunk> _spares = new();

    // The record being built: _current.Bytes[_start.._end). Touched only by the writer-slot holder.
    private Chunk? _current;
    private int _start;
    private int _end;

    /// <summary>The bytes of the record being built.</summary>
    public Span<byte> Building => _current is null ? [] : _current.Bytes.AsSpan(_start, _end - _start);

    /// <summary>The same bytes as memory, for the commit's log record (pinned already, so the log's gathered write pins it for free).</summary>
    public ReadOnlyMemory<byte> BuildingMemory => _current is null ? default : MemoryMarshal.CreateFromPinnedArray(_current.Bytes, _start, _end - _start);

    /// <summary>Chunks the arena holds, in use or spare (tests watch that they are reused).</summary>
    internal int ChunkCount
    {
        get
        {
            lock (_chunks)
            {
                return _chunks.Count + _spares.Count;
            }
        }
    }

    /// <summary>Starts a new record after the last kept one; the bytes of a record not kept are reused.</summary>
    public void Begin() => _start = _end = _current?.KeptEnd ?? 0;

    /// <summary>
    /// Appends <paramref name="length"/> bytes to the record being built and returns them. The
    /// record stays contiguous: when the chunk is full it moves to a new one (a record larger than
    /// a chunk gets a chunk of its own), so earlier spans of it are stale after a call.
    /// </summary>
    public Span<byte> Extend(int length)
    {
        if (_current is null || length > _current.Bytes.Length - _end)
        {
            MoveToNewChunk(checked(_end - _start + length));
        }

        var extension = _current!.Bytes.AsSpan(_end, length);
        _end += length;
        return extension;
    }

    /// <summary>The record being built was committed: its bytes stay until <see cref="Release"/>.</summary>
    public void Keep()
    {
        var chunk = _current!;
        lock (_chunks)
        {
            chunk.Kept++;
        }

        chunk.KeptEnd = _end;
        _start = _end;
    }

    /// <summary>The engine dropped a record kept here (no snapshot sees it): its chunk is reused once all its records are.</summary>
    public void Release(ReadOnlyMemory<byte> record)
    {
        if (!MemoryMarshal.TryGetArray(record, out var segment) || segment.Array is not { } array)
        {
            return;
        }

        lock (_chunks)
        {
            // Records read back from the log on open are arrays of their own.
            if (_chunks.TryGetValue(array, out var chunk) && --chunk.Kept == 0 && !ReferenceEquals(chunk, _current))
            {
                Retire(chunk);
            }
        }
    }

    private void MoveToNewChunk(int needed)
    {
        var chunk = TakeChunk(needed);
        var previous = _current;
        Building.CopyTo(chunk.Bytes);
        _end -= _start;
        _start = 0;
        _current = chunk;
        if (previous is not null)
        {
            lock (_chunks)
            {
                if (previous.Kept == 0)
                {
                    Retire(previous);
                }
            }
        }
    }

    private Chunk TakeChunk(int needed)
    {
        lock (_chunks)
        {
            var chunk = needed <= ChunkSize && _spares.TryPop(out var spare)
                ? spare
                : new Chunk(GC.AllocateUninitializedArray<byte>(Math.Max(ChunkSize, (int)Math.Min(Array.MaxLength, (long)needed * 2)), pinned: true));
            chunk.KeptEnd = 0;
            _chunks.Add(chunk.Bytes, chunk);
            return chunk;
        }
    }

    // Under the lock: no kept record is left in the chunk and no record is being built in it.
    // The writer leaving a chunk and the release of its last record may both find it empty.
    private void Retire(Chunk chunk)
    {
        if (_chunks.Remove(chunk.Bytes) && chunk.Bytes.Length == ChunkSize && _spares.Count < MaxSpareChunks)
        {
            _spares.Push(chunk);
        }
    }

    private sealed class Chunk(byte[] bytes)
    {
        public byte[] Bytes { get; } = bytes;

        /// <summary>Kept records not yet released (guarded by the arena's lock).</summary>
        public int Kept { get; set; }

        /// <summary>Where the next record starts: the end of the last kept one.</summary>
        public int KeptEnd { get; set; }
    }
}
