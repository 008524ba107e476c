using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

/// <summary>
/// A scan's own buffers for the pages it reads past a full cache (<see cref="IPageReader.ReadPageAhead"/>):
/// <see cref="Scratch"/> takes one page read out of sequence, and a window takes a run of
/// consecutive database-file pages read with one device read once the scan's misses move forward
/// through the file. The leaves of a tree filled in key order lie in ascending page order (a split
/// of the rightmost leaf takes the next free page), so a scan over such a tree meets most of its
/// next leaves already in the window and pays one system call per window instead of one per page.
/// While the scan works through one window, the next is read (and its pages' checksums computed)
/// on a thread-pool thread, so the copy out of the OS cache overlaps the scan's own work.
/// </summary>
/// <remarks>
/// A window's bytes are private to the scan and describe the file only as of the epoch they were
/// read in: the engine serves a page from a window only while the scan's snapshot says the page
/// lives in the file and no checkpoint has written the file since the read began, and serves it only
/// once its checksum has matched (computed by the background read, or else as it is served).
/// Memory returned from any buffer is valid until the owner's next read, as for
/// <see cref="IPageReader.ReadPageTransient"/>: the next read may refill the buffer it came from.
/// Used by one thread at a time, as the cursor that owns it.
/// </remarks>
internal sealed class PageReadAhead
{
    /// <summary>
    /// Pages per window: 512 KiB at the default 8 KiB page. Each background read costs a hand-over
    /// between threads; under load, windows of 16 pages made the hand-overs cost more than the reads
    /// they moved off the scan's thread (1M-document scan: 330 ms of CPU against 270 ms at 64).
    /// </summary>
    internal const int WindowPages = 64;

    /// <summary>
    /// A miss at most this many pages past the previous one continues a forward run: between the
    /// leaves of one tree lie the pages the same writes allocated for branches and other trees.
    /// </summary>
    internal const uint ForwardGap = 4;

    private bool _missed;
    private uint _lastMiss;
    private Window? _current;
    private Window? _next;
    private Task? _nextRead;

    /// <summary>The buffer for one page read out of sequence (allocated on first use, then reused).</summary>
    public byte[]? Scratch;

    /// <summary>
    /// The bytes of <paramref name="pageId"/> when the current window holds it as the file was in
    /// <paramref name="fileEpoch"/>; <paramref name="verified"/> says whether its checksum already matched.
    /// </summary>
    internal bool TryGetWindowPage(uint pageId, long fileEpoch, out Memory<byte> image, out bool verified)
    {
        if (_current is not { } window || !window.Holds(pageId, fileEpoch))
        {
            image = default;
            verified = false;
            return false;
        }

        _lastMiss = pageId;
        var slot = (int)(pageId - window.First);
        image = window.Page(slot);
        verified = window.Verified[slot];
        return true;
    }

    /// <summary>Whether the read in flight (or done) covers <paramref name="pageId"/>: then <see cref="TakeNextWindow"/> makes it current.</summary>
    internal bool NextWindowCovers(uint pageId) => _nextRead is not null && pageId >= _next!.First && pageId - _next.First < WindowPages;

    /// <summary>Records a page that was not in the cache; true when it continues a forward run, so a window should be read from it.</summary>
    internal bool ContinuesForwardRun(uint pageId)
    {
        var continues = _missed && pageId > _lastMiss && pageId - _lastMiss <= ForwardGap;
        _missed = true;
        _lastMiss = pageId;
        return continues;
    }

    /// <summary>Whether a window was just made current and the one after it should now be read ahead.</summary>
    internal bool WantsNextWindow => ReadsInBackground && _nextRead is null && _current is { Count: WindowPages, FollowerRequested: false };

    // On one core a background read only takes turns with the scan, and costs the hand-over.
    private static bool ReadsInBackground { get; } = Environment.ProcessorCount > 1;

    /// <summary>Reads the <paramref name="pageSize"/>-byte pages from <paramref name="firstPageId"/> into the current window now, on this thread.</summary>
    internal int ReadWindow(IStorageDevice file, uint firstPageId, int pageSize, long fileEpoch)
    {
        DropNextWindow();
        var window = _current ??= new Window(pageSize);
        var generation = window.Begin(firstPageId, fileEpoch, file);
        window.TryClaim(generation);
        var read = file.Read((long)firstPageId * pageSize, window.Buffer);
        window.Count = read / pageSize;
        return read;
    }

    /// <summary>Starts reading the window after the current one on a thread-pool thread, as the file is in <paramref name="fileEpoch"/>.</summary>
    internal void ReadNextWindowInBackground(IStorageDevice file, long fileEpoch)
    {
        var current = _current!;
        current.FollowerRequested = true;
        var next = _next ??= new Window(current.PageSize);
        var generation = next.Begin(current.First + WindowPages, fileEpoch, file);
        _nextRead = Task.Factory.StartNew(Window.ReadInBackground, (next, generation),
            CancellationToken.None, TaskCreationOptions.DenyChildAttach, TaskScheduler.Default);
    }

    /// <summary>
    /// Makes the window read ahead current: waits for the background read, or does the read here
    /// when the thread pool has not started it yet (a busy pool must not make the scan wait).
    /// The old current buffer takes the next background read.
    /// </summary>
    internal void TakeNextWindow()
    {
        _next!.ReadUnlessClaimed(_nextRead!);
        _nextRead = null;
        (_current, _next) = (_next, _current);
    }

    // A background read no longer wanted keeps its buffer until it ends, unless it never began.
    private void DropNextWindow()
    {
        if (_nextRead is { } pending)
        {
            _next!.AbandonUnlessClaimed(pending);
            _nextRead = null;
        }
    }

    private sealed class Window(int pageSize)
    {
        private IStorageDevice? _file;

        // Generation times two, plus one once a thread has claimed that generation's read: the
        // scan and the background task race for it, and exactly one of them reads.
        private long _claim;

        public int PageSize { get; } = pageSize;

        public byte[] Buffer { get; } = GC.AllocateUninitializedArray<byte>(WindowPages * pageSize);

        public bool[] Verified { get; } = new bool[WindowPages];

        public uint First { get; private set; }

        /// <summary>Whole pages read (fewer than <see cref="WindowPages"/> at the end of the file; 0 until read).</summary>
        public int Count { get; set; }

        public long Epoch { get; private set; }

        public bool FollowerRequested { get; set; }

        /// <summary>Readies the window for a new read and returns that read's generation.</summary>
        public long Begin(uint first, long epoch, IStorageDevice file)
        {
            _file = file;
            First = first;
            Epoch = epoch;
            Count = 0;
            FollowerRequested = false;
            Array.Clear(Verified);
            var generation = (Volatile.Read(ref _claim) / 2) + 1;
            Volatile.Write(ref _claim, generation * 2);
            return generation;
        }

        public bool TryClaim(long generation) => Interlocked.CompareExchange(ref _claim, (generation * 2) + 1, generation * 2) == generation * 2;

        public bool Holds(uint pageId, long fileEpoch) => fileEpoch == Epoch && pageId >= First && pageId - First < (uint)Count;

        public Memory<byte> Page(int slot) => Buffer.AsMemory(slot * PageSize, PageSize);

        public static void ReadInBackground(object? state)
        {
            var (window, generation) = ((Window, long))state!;
            if (window.TryClaim(generation))
            {
                window.ReadAndVerify(onScanThread: false);
            }
        }

        public void ReadUnlessClaimed(Task pending)
        {
            if (TryClaim(Volatile.Read(ref _claim) / 2))
            {
                ReadAndVerify(onScanThread: true);
            }
            else
            {
                pending.Wait();
            }
        }

        public void AbandonUnlessClaimed(Task pending)
        {
            if (!TryClaim(Volatile.Read(ref _claim) / 2))
            {
                pending.Wait();
            }
        }

        private void ReadAndVerify(bool onScanThread)
        {
            int read;
            try
            {
                read = _file!.Read((long)First * PageSize, Buffer);
            }
            catch (Exception exception) when (!onScanThread && exception is IOException or ObjectDisposedException)
            {
                // The window stays empty: the scan then reads these pages itself, on its own
                // thread, where a failing device or a closed database is reported to the caller.
                return;
            }

            var pages = read / PageSize;
            for (var slot = 0; slot < pages; slot++)
            {
                Verified[slot] = PageLayout.IsSealed(Page(slot).Span, First + (uint)slot);
            }

            Count = pages;
        }
    }
}
