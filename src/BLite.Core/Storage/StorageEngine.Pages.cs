using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

internal sealed partial class StorageEngine
{
    /// <summary>Page-sized arrays kept for writers' copies (see <see cref="RentPageImage"/>).</summary>
    internal int SpareImageCount
    {
        get
        {
            lock (_sync)
            {
                return _pages.SpareImageCount;
            }
        }
    }

    /// <summary>A page-sized array for a writer's private copy of a page; its content is garbage.</summary>
    internal byte[] RentPageImage()
    {
        lock (_sync)
        {
            if (_pages.TakeSpareImage() is { } spare)
            {
                return spare;
            }
        }

        return GC.AllocateUninitializedArray<byte>(PageSize);
    }

    /// <summary>Takes back the private copies of a transaction that rolled back: nobody else ever saw them.</summary>
    internal void ReturnPageImages(Dictionary<uint, byte[]>.ValueCollection images)
    {
        lock (_sync)
        {
            foreach (var image in images)
            {
                _pages.ReturnSpareImage(image);
            }
        }
    }

    /// <summary>
    /// The whole image (payload and trailer) of <paramref name="pageId"/> as <paramref name="snapshot"/>
    /// sees it. Cached images are returned as they are: they are never mutated.
    /// </summary>
    internal byte[] GetImage(uint pageId, long snapshot)
    {
        byte[]? noScratch = null;
        return GetImage(pageId, snapshot, ref noScratch, transient: false);
    }

    /// <summary>
    /// The same image for a reader that needs it only until its next read (see
    /// <see cref="IPageReader.ReadPageTransient"/>): when the page is not cached and the cache is
    /// full, it is read into <paramref name="scratch"/> rather than cached, so a walk over more
    /// pages than the cache holds neither allocates a page per read nor evicts the working set.
    /// </summary>
    internal byte[] GetImage(uint pageId, long snapshot, ref byte[]? scratch) => GetImage(pageId, snapshot, ref scratch, transient: true);

    private byte[] GetImage(uint pageId, long snapshot, ref byte[]? scratch, bool transient)
    {
        if (TryGetHotPage(pageId, snapshot, out var hot))
        {
            _hotPageHits.Add(1);
            return hot;
        }

        while (true)
        {
            PageVersion? version;
            bool fromWal;
            long location;
            long fileEpoch;
            long walEpoch;
            bool cache;
            lock (_sync)
            {
                ThrowIfDisposed();
                version = _pages.Find(pageId, snapshot);
                if (version?.Image is { } cached)
                {
                    _pages.Touch(version);
                    _cacheHits++;
                    RememberHotPage(version, snapshot, cached);
                    return cached;
                }

                fromWal = version is not null && version.WalOffset >= 0;
                location = fromWal ? version!.WalOffset : (long)pageId * PageSize;
                fileEpoch = _fileEpoch;
                walEpoch = _walEpoch;
                cache = !transient || _pages.HasRoomForImage;
            }

            Interlocked.Increment(ref _cacheMisses);
            var image = cache ? new byte[PageSize] : scratch ??= new byte[PageSize];
            var intact = TryReadImage(fromWal, location, pageId, image);

            lock (_sync)
            {
                // A checkpoint that overwrote the file or restarted the WAL while we read may have
                // changed the bytes under us; the version chain now says where our image lives.
                if (fileEpoch != _fileEpoch || walEpoch != _walEpoch)
                {
                    continue;
                }

                if (!intact)
                {
                    throw PageCorruption(fromWal, pageId, image);
                }

                if (!cache)
                {
                    return image;
                }

                if (version is null)
                {
                    _pages.TryAddFileImage(pageId, image);
                }
                else
                {
                    _pages.AttachImage(version, image);
                }

                return image;
            }
        }
    }

    /// <summary>Reads and checks a page image from the WAL or the file, outside the lock.</summary>
    private bool TryReadImage(bool fromWal, long location, uint pageId, byte[] image)
    {
        int read;
        try
        {
            read = fromWal ? _walDevice.Read(location, image) : _file.Read(location, image);
        }
        catch (IOException exception)
        {
            throw new BLiteException($"Reading page {pageId} of database '{Path}' failed: {exception.Message}", exception);
        }

        var intact = read == image.Length && PageLayout.IsSealed(image, pageId);

        // A read-only view of files a writer may be changing first makes sure the bytes still
        // belong to its snapshot; damage seen in bytes a writer was replacing is not damage.
        _sharedLog?.AfterRead(fromWal, pageId, image, intact);
        return intact;
    }

    private BLiteCorruptionException PageCorruption(bool fromWal, uint pageId, byte[] image)
    {
        if (_publishesInMemory && !fromWal && _file.Length < ((long)pageId + 1) * PageSize)
        {
            return InMemoryPageMissing(pageId);
        }

        var where = fromWal ? $"in its write-ahead log frame ('{_walDevice.Name}')" : "in the database file";
        var damage = IsEncrypted
            ? "authentication failed (AES-GCM): the page was altered, moved, copied from elsewhere, replaced by an older version of itself (rollback) or damaged"
            : PageLayout.DescribeDamage(image, pageId);
        var exception = new BLiteCorruptionException(Path, pageId, $"{damage} ({where}).");
        Fail(exception);
        return exception;
    }
}
