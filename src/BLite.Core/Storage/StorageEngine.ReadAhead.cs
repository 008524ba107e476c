using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

internal sealed partial class StorageEngine
{
    private long _pagesReadAhead;

    /// <summary>Pages served from a scan's read-ahead window since open (each also counts as a cache miss).</summary>
    internal long PagesReadAhead => Interlocked.Read(ref _pagesReadAhead);

    // A plain file only: an encrypted device authenticates each page as it reads it, a read-only
    // view checks each page against the log a writer may be appending, and an in-memory database
    // keeps every page in its version chains.
    private bool ReadsAhead => _file is FileDevice && _sharedLog is null && !_publishesInMemory;

    /// <summary>
    /// The whole image of <paramref name="pageId"/> as <paramref name="snapshot"/> sees it, for a
    /// scan that needs it only until its next read (<see cref="IPageReader.ReadPageAhead"/>). As
    /// <see cref="GetImage(uint, long, ref byte[])"/>, except that when the cache is full and the
    /// scan's misses run forward through the database file, the next pages are read with one
    /// device read into the scan's window and served from there, each checked as it is served.
    /// </summary>
    internal ReadOnlyMemory<byte> GetImageAhead(uint pageId, long snapshot, PageReadAhead readAhead)
    {
        if (!ReadsAhead)
        {
            return GetImage(pageId, snapshot, ref readAhead.Scratch);
        }

        while (true)
        {
            long fileEpoch;
            Memory<byte> windowed = default;
            lock (_sync)
            {
                ThrowIfDisposed();
                var version = _pages.Find(pageId, snapshot);
                var inFile = version is null || (version.Image is null && version.WalOffset < 0);
                if (!inFile || _pages.HasRoomForImage)
                {
                    // Cached, in the log, or a cache with room to keep it: the one-page path.
                    fileEpoch = -1;
                }
                else if (readAhead.TryGetWindowPage(pageId, _fileEpoch, PageSize, out windowed))
                {
                    _pagesReadAhead++;
                    fileEpoch = 0;
                }
                else
                {
                    fileEpoch = readAhead.ContinuesForwardRun(pageId) ? _fileEpoch : -1;
                }
            }

            if (!windowed.IsEmpty)
            {
                // The window is the scan's own memory: checked outside the lock, and on every serve,
                // so a damaged page is reported whichever read brought it in.
                Interlocked.Increment(ref _cacheMisses);
                if (!PageLayout.IsSealed(windowed.Span, pageId))
                {
                    throw PageCorruption(fromWal: false, pageId, windowed.ToArray());
                }

                return windowed;
            }

            if (fileEpoch < 0)
            {
                return GetImage(pageId, snapshot, ref readAhead.Scratch);
            }

            var window = readAhead.WindowToFill(PageSize);
            int read;
            try
            {
                read = _file.Read((long)pageId * PageSize, window);
            }
            catch (IOException exception)
            {
                throw new BLiteException($"Reading pages {pageId} to {pageId + PageReadAhead.WindowPages - 1} of database '{Path}' failed: {exception.Message}", exception);
            }

            if (read < PageSize)
            {
                // Past the end of the file: the one-page path reports what is missing.
                return GetImage(pageId, snapshot, ref readAhead.Scratch);
            }

            // Served (and checked) on the next turn, under the lock that tells whether a checkpoint
            // wrote the file while it was read: then the epoch moved, and the page is read alone.
            readAhead.WindowFilled(pageId, read / PageSize, fileEpoch);
        }
    }
}
