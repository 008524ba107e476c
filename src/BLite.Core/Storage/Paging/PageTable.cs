namespace BLite.Core.Storage.Paging;

/// <summary>
/// The engine's in-memory knowledge of pages: the version chains that give snapshot isolation
/// (the WAL index) and the page cache (images on those versions, under a byte budget with
/// second-chance LRU eviction). Not thread-safe: the engine guards it with its lock.
/// </summary>
internal sealed class PageTable
{
    private readonly PageHeads _heads = new();
    private readonly HashSet<uint> _pagesWithPins = [];
    private readonly Stack<byte[]> _spareImages = new();
    private readonly long _budgetBytes;
    private readonly int _pageSize;
    private readonly int _maxSpareImages;
    private PageVersion? _lruHead;
    private PageVersion? _lruTail;
    private bool _hasPins;

    /// <param name="maxSpareBytes">How many bytes of images dropped versions leave behind are kept for reuse (see <see cref="TakeSpareImage"/>).</param>
    public PageTable(int pageSize, long budgetBytes, long maxSpareBytes)
    {
        _pageSize = pageSize;
        _budgetBytes = budgetBytes;
        _maxSpareImages = (int)Math.Min(int.MaxValue, maxSpareBytes / pageSize);
    }

    public long CachedBytes { get; private set; }

    public long PinnedBytes { get; private set; }

    public int ChainCount => _heads.Count;

    /// <summary>Images kept for reuse.</summary>
    public int SpareImageCount => _spareImages.Count;

    /// <summary>Whether some chain holds a pinned version; the one member readers may call without the engine lock.</summary>
    public bool HasPins => Volatile.Read(ref _hasPins);

    /// <summary>Whether one more image fits the budget without evicting another.</summary>
    public bool HasRoomForImage => CachedBytes + _pageSize <= _budgetBytes;

    public PageVersion? Head(uint pageId) => _heads.Get(pageId);

    /// <summary>The version <paramref name="snapshot"/> sees; null means the database file's content.</summary>
    public PageVersion? Find(uint pageId, long snapshot)
    {
        var version = _heads.Get(pageId);
        while (version is not null && version.Seq > snapshot)
        {
            version = version.Older;
        }

        return version;
    }

    public void Touch(PageVersion version) => version.Referenced = true;

    /// <summary>
    /// A page-sized array whose content is garbage, or null when none is spare. Writers take
    /// their copy-on-write images from here, so a commit does not allocate a page per page it
    /// changes: the arrays come back when the versions they held are dropped.
    /// </summary>
    public byte[]? TakeSpareImage() => _spareImages.TryPop(out var image) ? image : null;

    /// <summary>
    /// Keeps <paramref name="image"/> for reuse. Only for an array nobody can read any more: the
    /// image of a dropped version (no snapshot sees it, and readers touch page memory only while
    /// their snapshot is registered) or a rolled-back transaction's private copy. Evicted images
    /// never come here: a reader may still hold one.
    /// </summary>
    public void ReturnSpareImage(byte[] image)
    {
        if (image.Length == _pageSize && _spareImages.Count < _maxSpareImages)
        {
            _spareImages.Push(image);
        }
    }

    /// <summary>A newly committed (or recovered) version becomes the head of its chain.</summary>
    public void Push(uint pageId, long seq, long walOffset, byte[]? image)
    {
        var version = new PageVersion(pageId, seq, walOffset, null);
        version.Older = _heads.Get(pageId);
        version.Older?.ReplaceAt(seq);
        _heads.Set(pageId, version);
        if (image is not null)
        {
            AttachImage(version, image);
        }
    }

    /// <summary>Caches a database-file image for a page that has no chain; returns false when a chain appeared meanwhile.</summary>
    public bool TryAddFileImage(uint pageId, byte[] image)
    {
        if (_heads.Get(pageId) is not null)
        {
            return false;
        }

        var version = new PageVersion(pageId, 0, PageVersion.InMainFile, null);
        _heads.Set(pageId, version);
        AttachImage(version, image);
        return true;
    }

    public void AttachImage(PageVersion version, byte[] image)
    {
        if (version.Dropped || version.Image is not null)
        {
            return;
        }

        version.Image = image;
        version.Referenced = false;
        LinkAtHead(version);
        CachedBytes += _pageSize;
        EvictOverBudget();
    }

    /// <summary>Keeps <paramref name="version"/> in memory for old snapshots whatever the budget.</summary>
    public void Pin(PageVersion version, byte[] image)
    {
        // A version dropped since the checkpoint chose it (its last reader ended and pruned it)
        // is seen by no snapshot; pinning it would count bytes no chain holds any more.
        if (version.Pinned || version.Dropped)
        {
            return;
        }

        if (version.InLru)
        {
            Unlink(version);
            CachedBytes -= _pageSize;
        }

        version.Image ??= image;
        version.Pinned = true;
        version.WalOffset = PageVersion.InMemoryOnly;
        PinnedBytes += _pageSize;
        _pagesWithPins.Add(version.PageId);
        Volatile.Write(ref _hasPins, true);
    }

    /// <summary>Adds a pinned copy of the database file's current content below every version of the page.</summary>
    public PageVersion AppendPinnedFileImage(uint pageId, byte[] image)
    {
        var version = new PageVersion(pageId, 0, PageVersion.InMemoryOnly, null);
        var tail = _heads.Get(pageId)!;
        while (tail.Older is not null)
        {
            tail = tail.Older;
        }

        version.ReplaceAt(tail.Seq);
        tail.Older = version;
        Pin(version, image);
        return version;
    }

    /// <summary>
    /// Drops every version but the head that no snapshot in <paramref name="snapshots"/> (ascending)
    /// sees, and forgets the chain when only an uncached file image is left.
    /// </summary>
    public void Prune(uint pageId, ReadOnlySpan<long> snapshots)
    {
        if (_heads.Get(pageId) is not { } head)
        {
            return;
        }

        var newer = head;
        var hasPins = head.Pinned;
        while (newer.Older is { } older)
        {
            if (IsSeenBySomeSnapshot(older.Seq, newer.Seq, snapshots))
            {
                hasPins |= older.Pinned;
                newer = older;
            }
            else
            {
                newer.Older = older.Older;
                Drop(older);
            }
        }

        if (!hasPins && _pagesWithPins.Remove(pageId))
        {
            Volatile.Write(ref _hasPins, _pagesWithPins.Count > 0);
        }

        if (head.Older is null && head.WalOffset == PageVersion.InMainFile && head.Image is null)
        {
            _heads.Remove(pageId);
            head.Dropped = true;
        }
    }

    /// <summary>
    /// Drops the versions of <paramref name="pageId"/> older than the one
    /// <paramref name="oldestSnapshot"/> sees: every live snapshot is at or above it, so none can
    /// see them, and their arrays go back for reuse at once rather than at the next checkpoint.
    /// Chains with pinned versions are left to <see cref="Prune"/>.
    /// </summary>
    public void DropHidden(uint pageId, long oldestSnapshot)
    {
        if (_pagesWithPins.Contains(pageId) || _heads.Get(pageId) is not { } version)
        {
            return;
        }

        while (version.Seq > oldestSnapshot && version.Older is { } older)
        {
            version = older;
        }

        var hidden = version.Older;
        version.Older = null;
        while (hidden is not null)
        {
            var next = hidden.Older;
            Drop(hidden);
            hidden = next;
        }
    }

    public void PrunePinnedPages(ReadOnlySpan<long> snapshots)
    {
        if (_pagesWithPins.Count == 0)
        {
            return;
        }

        foreach (var pageId in _pagesWithPins.ToArray())
        {
            Prune(pageId, snapshots);
        }
    }

    private static bool IsSeenBySomeSnapshot(long seq, long newerSeq, ReadOnlySpan<long> snapshots)
    {
        foreach (var snapshot in snapshots)
        {
            if (snapshot >= seq && snapshot < newerSeq)
            {
                return true;
            }
        }

        return false;
    }

    private void Drop(PageVersion version)
    {
        version.Dropped = true;
        version.Older = null;
        if (version.InLru)
        {
            Unlink(version);
            CachedBytes -= _pageSize;
        }

        if (version.Pinned)
        {
            PinnedBytes -= _pageSize;
        }

        if (version.Image is { } image)
        {
            ReturnSpareImage(image);
        }

        version.Image = null;
    }

    private void EvictOverBudget()
    {
        // Each pass either evicts the tail or gives it its second chance, and a second chance is
        // spent once, so this ends within two laps of the list.
        while (CachedBytes > _budgetBytes && _lruTail is { } victim)
        {
            Unlink(victim);
            if (victim.Referenced)
            {
                victim.Referenced = false;
                LinkAtHead(victim);
                continue;
            }

            victim.Image = null;
            CachedBytes -= _pageSize;
            if (victim.WalOffset == PageVersion.InMainFile && victim.Older is null
                && ReferenceEquals(_heads.Get(victim.PageId), victim))
            {
                _heads.Remove(victim.PageId);
                victim.Dropped = true;
            }
        }
    }

    private void LinkAtHead(PageVersion version)
    {
        version.LruPrevious = null;
        version.LruNext = _lruHead;
        if (_lruHead is not null)
        {
            _lruHead.LruPrevious = version;
        }

        _lruHead = version;
        _lruTail ??= version;
        version.InLru = true;
    }

    private void Unlink(PageVersion version)
    {
        if (version.LruPrevious is null)
        {
            _lruHead = version.LruNext;
        }
        else
        {
            version.LruPrevious.LruNext = version.LruNext;
        }

        if (version.LruNext is null)
        {
            _lruTail = version.LruPrevious;
        }
        else
        {
            version.LruNext.LruPrevious = version.LruPrevious;
        }

        version.LruPrevious = null;
        version.LruNext = null;
        version.InLru = false;
    }
}
