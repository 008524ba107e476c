using BLite.Core.Storage.Paging;

namespace BLite.Core.Storage;

/// <summary>
/// The page count, kept in memory per commit rather than in page 0 on every allocation
/// (docs/format.md, "Page count"). A page past the end exists only once a commit wrote it, so
/// each commit's count is the previous one or one past its highest page id, whichever is larger;
/// the log and the file therefore hold the count without page 0 travelling with every split:
/// open takes the largest of page 0's count, the file's length in pages and one past the
/// highest page id among the committed frames. Page 0 still carries the count whenever a commit
/// writes it (a free-list change), and always in format-1 files, whose older readers trust it.
/// </summary>
internal sealed partial class StorageEngine
{
    // Ascending by seq and by count: the counts the live snapshots can see, from the one the
    // oldest sees to the newest. Under _sync.
    private readonly List<(long Seq, uint Count)> _pageCounts = [];

    // The newest count, for the writer-slot holder, whose snapshot is always the newest commit.
    private uint _newestPageCount;

    /// <summary>Whether commits that only extend the file must still write the count into page 0 (a format-1 file).</summary>
    internal bool HeaderCarriesPageCount { get; private set; }

    /// <summary>Pages 0..count-1 exist in the newest commit; read by the writer-slot holder.</summary>
    internal uint NewestPageCount => Volatile.Read(ref _newestPageCount);

    /// <summary>Page 0's fields as the writer-slot holder's transaction on <paramref name="snapshot"/> (the newest commit) starts from.</summary>
    private DatabaseHeader WriterHeader(long snapshot)
    {
        var header = DatabaseHeader.Read(GetImage(PageIds.Header, snapshot, remember: false));
        header.PageCount = Math.Max(header.PageCount, NewestPageCount);
        return header;
    }

    /// <summary>Pages 0..count-1 exist as <paramref name="snapshot"/> sees them. Call under _sync.</summary>
    private uint PageCountAt(long snapshot)
    {
        for (var i = _pageCounts.Count - 1; i >= 0; i--)
        {
            if (_pageCounts[i].Seq <= snapshot)
            {
                return _pageCounts[i].Count;
            }
        }

        // Older than every kept entry: only the open's own snapshot can be, and the first entry is its count.
        return _pageCounts.Count > 0 ? _pageCounts[0].Count : 0;
    }

    /// <summary>Records the count after commit <paramref name="seq"/>, which wrote <paramref name="pageIds"/>. Call under _sync.</summary>
    private void NotePageCount(ReadOnlySpan<uint> pageIds, long seq)
    {
        var highest = 0u;
        foreach (var pageId in pageIds)
        {
            highest = Math.Max(highest, pageId);
        }

        if (pageIds.IsEmpty || highest < _newestPageCount)
        {
            return;
        }

        _pageCounts.Add((seq, highest + 1));
        Volatile.Write(ref _newestPageCount, highest + 1);

        // Keep the count the oldest live snapshot sees and every later one.
        var oldestLive = OldestLiveSnapshot();
        var seen = 0;
        while (seen + 1 < _pageCounts.Count && _pageCounts[seen + 1].Seq <= oldestLive)
        {
            seen++;
        }

        _pageCounts.RemoveRange(0, seen);
    }

    /// <summary>
    /// Sets the count an open starts from: the largest of page 0's count, <paramref name="filePages"/>
    /// (the file's length in pages, measured before the log was scanned) and one past the highest
    /// page in the log's committed frames. Each is at most the true count, and the page that ends
    /// the file was written by a commit whose frame is either still in the log or already copied
    /// into the file, so the largest is the true count.
    /// </summary>
    private void StartPageCount(long filePages)
    {
        var header = DatabaseHeader.Read(GetImage(PageIds.Header, _writtenSeq, remember: false));
        var count = Math.Max(header.PageCount, (uint)Math.Min(filePages, uint.MaxValue));
        foreach (var pageId in _walPages)
        {
            count = Math.Max(count, pageId + 1);
        }

        HeaderCarriesPageCount = header.Version < DatabaseHeader.FormatVersion;
        lock (_sync)
        {
            _pageCounts.Clear();
            _pageCounts.Add((_writtenSeq, count));
            _newestPageCount = count;
            _published.PageCount = PageCountAt(_published.Seq);
        }
    }
}
