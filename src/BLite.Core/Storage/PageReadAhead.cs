namespace BLite.Core.Storage;

/// <summary>
/// A scan's own buffers for the pages it reads past a full cache (<see cref="IPageReader.ReadPageAhead"/>):
/// <see cref="Scratch"/> takes one page read out of sequence, and a window takes a run of
/// consecutive database-file pages read with one device read once the scan's misses move forward
/// through the file. The leaves of a tree filled in key order lie in ascending page order (a split
/// of the rightmost leaf takes the next free page), so a scan over such a tree meets most of its
/// next leaves already in the window, and pays one system call per window instead of one per page.
/// </summary>
/// <remarks>
/// The window's bytes are private to the scan and only describe the file as of the epoch they were
/// read in (<see cref="WindowEpoch"/>): the engine serves a page from the window only while its
/// snapshot says the page lives in the file and no checkpoint has written the file since, and
/// checks the page's checksum each time it serves it. Memory returned from either buffer is valid
/// until the owner's next read, as for <see cref="IPageReader.ReadPageTransient"/>.
/// </remarks>
internal sealed class PageReadAhead
{
    /// <summary>Pages per window: 128 KiB at the default 8 KiB page, small enough to stay in a core's cache until scanned.</summary>
    internal const int WindowPages = 16;

    /// <summary>
    /// A miss at most this many pages past the previous one continues a forward run: between the
    /// leaves of one tree lie the pages the same writes allocated for branches and other trees.
    /// </summary>
    internal const uint ForwardGap = 4;

    private bool _missed;
    private uint _lastMiss;

    /// <summary>The buffer for one page read out of sequence (allocated on first use, then reused).</summary>
    public byte[]? Scratch;

    /// <summary>Consecutive file pages from <see cref="WindowFirst"/>; null until the first forward run.</summary>
    internal byte[]? Window { get; private set; }

    internal uint WindowFirst { get; private set; }

    /// <summary>Whole pages the last window read holds (fewer than <see cref="WindowPages"/> at the end of the file).</summary>
    internal int WindowCount { get; private set; }

    /// <summary>The engine's file epoch the window was read in.</summary>
    internal long WindowEpoch { get; private set; }

    /// <summary>The window's bytes of <paramref name="pageId"/>, when it holds that page as the file was in <paramref name="fileEpoch"/>.</summary>
    internal bool TryGetWindowPage(uint pageId, long fileEpoch, int pageSize, out Memory<byte> image)
    {
        var slot = (long)pageId - WindowFirst;
        if (Window is null || fileEpoch != WindowEpoch || slot < 0 || slot >= WindowCount)
        {
            image = default;
            return false;
        }

        _lastMiss = pageId;
        image = Window.AsMemory((int)slot * pageSize, pageSize);
        return true;
    }

    /// <summary>Records a page that was not in the cache; true when it continues a forward run, so a window should be read from it.</summary>
    internal bool ContinuesForwardRun(uint pageId)
    {
        var continues = _missed && pageId > _lastMiss && pageId - _lastMiss <= ForwardGap;
        _missed = true;
        _lastMiss = pageId;
        return continues;
    }

    /// <summary>The window buffer to read into, allocated on first use; its old content stops being served.</summary>
    internal byte[] WindowToFill(int pageSize)
    {
        WindowCount = 0;
        return Window ??= GC.AllocateUninitializedArray<byte>(WindowPages * pageSize);
    }

    internal void WindowFilled(uint firstPageId, int pages, long fileEpoch)
    {
        WindowFirst = firstPageId;
        WindowCount = pages;
        WindowEpoch = fileEpoch;
    }
}
