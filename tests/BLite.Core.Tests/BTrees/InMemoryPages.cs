using BLite.Core.Storage;

namespace BLite.Core.Tests.BTrees;

/// <summary>
/// A test double for the page-access contract: copy-on-write pages, one open transaction at a
/// time with Commit and Rollback, and strict bookkeeping of allocated and freed pages so tests
/// can detect leaks, double frees and use of freed pages. Pages 0 and 1 are reserved as in a
/// real database file and never handed out.
/// </summary>
internal sealed class InMemoryPages : IPageWriter
{
    private const uint FirstAllocatable = 2;

    private readonly Dictionary<uint, byte[]> _committed = [];
    private readonly SortedSet<uint> _committedFree = [];
    private uint _committedEnd = FirstAllocatable;

    private readonly Dictionary<uint, byte[]> _written = [];
    private readonly HashSet<uint> _allocatedInTransaction = [];
    private readonly HashSet<uint> _freedInTransaction = [];
    private readonly SortedSet<uint> _free = [];
    private uint _end = FirstAllocatable;

    public InMemoryPages(int pagePayloadSize = 4096) => PagePayloadSize = pagePayloadSize;

    public int PagePayloadSize { get; }

    /// <summary>Pages allocated and not freed, as this transaction sees them.</summary>
    public IReadOnlySet<uint> LivePages
    {
        get
        {
            var live = new HashSet<uint>(_committed.Keys);
            live.UnionWith(_allocatedInTransaction);
            live.ExceptWith(_freedInTransaction);
            return live;
        }
    }

    public int CommittedPageCount => _committed.Count;

    public long WritePageCalls { get; private set; }

    public ReadOnlyMemory<byte> ReadPage(uint pageId)
    {
        CheckLive(pageId);
        return _written.TryGetValue(pageId, out var copy) ? copy : _committed[pageId];
    }

    public Memory<byte> WritePage(uint pageId)
    {
        WritePageCalls++;
        CheckLive(pageId);
        if (_written.TryGetValue(pageId, out var copy))
            return copy;
        copy = (byte[])_committed[pageId].Clone();
        _written[pageId] = copy;
        return copy;
    }

    public uint AllocatePage()
    {
        uint pageId;
        if (_free.Count > 0)
        {
            pageId = _free.Min;
            _free.Remove(pageId);
        }
        else
        {
            pageId = _end++;
        }
        _allocatedInTransaction.Add(pageId);
        _written[pageId] = new byte[PagePayloadSize];
        return pageId;
    }

    public void FreePage(uint pageId)
    {
        CheckLive(pageId);
        _freedInTransaction.Add(pageId);
    }

    /// <summary>Makes this transaction's pages the committed state; earlier committed arrays stay untouched for their holders.</summary>
    public void Commit()
    {
        foreach (var (pageId, copy) in _written)
        {
            if (!_freedInTransaction.Contains(pageId))
                _committed[pageId] = copy;
        }
        foreach (var pageId in _freedInTransaction)
        {
            _committed.Remove(pageId);
            _free.Add(pageId);
        }
        _committedFree.Clear();
        _committedFree.UnionWith(_free);
        _committedEnd = _end;
        ClearTransaction();
    }

    public void Rollback()
    {
        _free.Clear();
        _free.UnionWith(_committedFree);
        _end = _committedEnd;
        ClearTransaction();
    }

    private void ClearTransaction()
    {
        _written.Clear();
        _allocatedInTransaction.Clear();
        _freedInTransaction.Clear();
    }

    private void CheckLive(uint pageId)
    {
        if (_freedInTransaction.Contains(pageId))
            throw new InvalidOperationException($"Page {pageId} was freed in this transaction.");
        if (!_committed.ContainsKey(pageId) && !_allocatedInTransaction.Contains(pageId))
            throw new InvalidOperationException($"Page {pageId} is not allocated.");
    }
}
