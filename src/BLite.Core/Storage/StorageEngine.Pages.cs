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

    // A database that grows takes a new page image for every page it adds. Once it has taken this
    // many, a background task keeps a reserve of ready arrays in the spare pool, so a commit that
    // adds a page neither allocates nor touches fresh memory (page faults) on its own path.
    private const int SpareReserveAfterMisses = 64;
    private const int SpareReserve = 256;
    private int _spareMisses;
    private int _spareRefillQueued;

    /// <summary>A page-sized array for a writer's private copy of a page; its content is garbage.</summary>
    internal byte[] RentPageImage()
    {
        byte[]? spare;
        int left;
        lock (_sync)
        {
            spare = _pages.TakeSpareImage();
            left = _pages.SpareImageCount;
        }

        if (spare is null && _spareMisses < SpareReserveAfterMisses)
        {
            _spareMisses++;
        }

        if (left < SpareReserve / 4 && _spareMisses >= SpareReserveAfterMisses)
        {
            QueueSpareRefill();
        }

        return spare ?? NewPageImage();
    }

    /// <summary>
    /// A new page image, on the pinned object heap: it becomes a committed image that the cache
    /// keeps for as long as the page stays in it, so in the young generations it would only be
    /// copied from collection to collection, and a growing database would drive young collections
    /// by its growth alone. The pinned heap is collected with the oldest generation.
    /// </summary>
    private byte[] NewPageImage() => GC.AllocateUninitializedArray<byte>(PageSize, pinned: true);

    private void QueueSpareRefill()
    {
        if (Interlocked.Exchange(ref _spareRefillQueued, 1) == 0)
        {
            ThreadPool.UnsafeQueueUserWorkItem(static engine => engine.RefillSpareImages(), this, preferLocal: false);
        }
    }

    /// <summary>Tops the spare pool up to the reserve (see <see cref="RentPageImage"/>); run on the thread pool, and by tests directly.</summary>
    internal void RefillSpareImages()
    {
        try
        {
            while (true)
            {
                var image = NewPageImage();

                // Fault every memory page in here rather than in the commit that takes the array.
                for (var offset = 0; offset < image.Length; offset += 4096)
                {
                    image[offset] = 0;
                }

                lock (_sync)
                {
                    var count = _pages.SpareImageCount;
                    if (_disposed || count >= SpareReserve)
                    {
                        return;
                    }

                    _pages.ReturnSpareImage(image);
                    if (_pages.SpareImageCount == count)
                    {
                        // Refused: the pool is already at the bound its options set.
                        return;
                    }
                }
            }
        }
        finally
        {
            Volatile.Write(ref _spareRefillQueued, 0);
        }
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
    /// <param name="remember">
    /// False for a writer's reads: the pages a writer reads are mostly the ones it is about to
    /// replace, and memoizing them (see <see cref="RememberHotPage"/>) would take slots from the
    /// readers' pages for versions its own commit makes stale.
    /// </param>
    internal byte[] GetImage(uint pageId, long snapshot, bool remember = true)
    {
        byte[]? noScratch = null;
        return GetImage(pageId, snapshot, ref noScratch, transient: false, remember);
    }

    /// <summary>
    /// The same image for a reader that needs it only until its next read (see
    /// <see cref="IPageReader.ReadPageTransient"/>): when the page is not cached and the cache is
    /// full, it is read into <paramref name="scratch"/> rather than cached, so a walk over more
    /// pages than the cache holds neither allocates a page per read nor evicts the working set.
    /// </summary>
    internal byte[] GetImage(uint pageId, long snapshot, ref byte[]? scratch) => GetImage(pageId, snapshot, ref scratch, transient: true);

    private byte[] GetImage(uint pageId, long snapshot, ref byte[]? scratch, bool transient, bool remember = true)
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
                    if (remember)
                    {
                        RememberHotPage(version);
                    }

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
