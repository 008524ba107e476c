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
    /// device read into the scan's window and served from there (see <see cref="PageReadAhead"/>).
    /// </summary>
    internal ReadOnlyMemory<byte> GetImageAhead(uint pageId, long snapshot, PageReadAhead readAhead)
    {
        if (!ReadsAhead)
        {
            return GetImage(pageId, snapshot, ref readAhead.Scratch);
        }

        while (true)
        {
            var step = ReadAheadStep.ReadAlone;
            long fileEpoch;
            Memory<byte> windowed = default;
            var verified = false;
            lock (_sync)
            {
                ThrowIfDisposed();
                fileEpoch = _fileEpoch;
                var version = _pages.Find(pageId, snapshot);
                if (version?.Image is { } cached)
                {
                    // Most pages of a scan within the cache's budget: one lock, as for any read.
                    _pages.Touch(version);
                    _cacheHits++;
                    RememberHotPage(version);
                    return cached;
                }

                if ((version is not null && version.WalOffset >= 0) || _pages.HasRoomForImage)
                {
                    // In the log, or a cache with room to keep it: the one-page path.
                }
                else if (readAhead.TryGetWindowPage(pageId, fileEpoch, out windowed, out verified))
                {
                    _pagesReadAhead++;
                    step = ReadAheadStep.Serve;
                }
                else if (readAhead.NextWindowCovers(pageId))
                {
                    step = ReadAheadStep.TakeNextWindow;
                }
                else if (readAhead.ContinuesForwardRun(pageId))
                {
                    step = ReadAheadStep.ReadWindow;
                }
            }

            switch (step)
            {
                case ReadAheadStep.Serve:
                    return Serve(pageId, windowed, verified, readAhead, fileEpoch);
                case ReadAheadStep.TakeNextWindow:
                    // Served on the next turn if no checkpoint has written the file since its read began.
                    try
                    {
                        readAhead.TakeNextWindow();
                    }
                    catch (IOException exception)
                    {
                        throw WindowReadFailed(pageId, exception);
                    }

                    continue;
                case ReadAheadStep.ReadWindow:
                    if (ReadWindow(pageId, readAhead, fileEpoch))
                    {
                        continue;
                    }

                    break;
            }

            return GetImage(pageId, snapshot, ref readAhead.Scratch);
        }
    }

    private enum ReadAheadStep { ReadAlone, Serve, TakeNextWindow, ReadWindow }

    private ReadOnlyMemory<byte> Serve(uint pageId, Memory<byte> image, bool verified, PageReadAhead readAhead, long fileEpoch)
    {
        // A window is the scan's own memory: checked outside the lock, by the background read or
        // here, so a damaged page is reported whichever read brought it in.
        Interlocked.Increment(ref _cacheMisses);
        if (!verified && !PageLayout.IsSealed(image.Span, pageId))
        {
            throw PageCorruption(fromWal: false, pageId, image.ToArray());
        }

        if (readAhead.WantsNextWindow)
        {
            // The epoch read under the lock before this read begins: a checkpoint that writes the
            // file meanwhile moves it, and the window is then never served.
            readAhead.ReadNextWindowInBackground(_file, fileEpoch);
        }

        return image;
    }

    /// <summary>Reads the window from <paramref name="pageId"/> on this thread; false when the file ends before it.</summary>
    private bool ReadWindow(uint pageId, PageReadAhead readAhead, long fileEpoch)
    {
        try
        {
            return readAhead.ReadWindow(_file, pageId, PageSize, fileEpoch) >= PageSize;
        }
        catch (IOException exception)
        {
            throw WindowReadFailed(pageId, exception);
        }
    }

    private BLiteException WindowReadFailed(uint pageId, IOException exception) =>
        new($"Reading pages {pageId} to {pageId + PageReadAhead.WindowPages - 1} of database '{Path}' failed: {exception.Message}", exception);
}
