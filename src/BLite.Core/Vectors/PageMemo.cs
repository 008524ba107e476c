using BLite.Core.Storage;

namespace BLite.Core.Vectors;

/// <summary>
/// Remembers the pages one graph search has read, so the many B+ tree descents of a search (one
/// per node visited, through the same few branch pages) do not each go back to the page cache and
/// its lock. Valid only while nothing writes: it is reset at the start of every search step, and
/// pages never change during one.
/// </summary>
internal sealed class PageMemo : IPageReader
{
    private readonly Dictionary<uint, ReadOnlyMemory<byte>> _pages = [];
    private IPageReader? _inner;

    public int PagePayloadSize => _inner!.PagePayloadSize;

    public IPageReader Begin(IPageReader inner)
    {
        _pages.Clear();
        _inner = inner;
        return this;
    }

    public bool TryReadCounter(uint key, out long value) => _inner!.TryReadCounter(key, out value);

    public ReadOnlyMemory<byte> ReadPage(uint pageId)
    {
        if (!_pages.TryGetValue(pageId, out var page))
        {
            page = _inner!.ReadPage(pageId);
            _pages.Add(pageId, page);
        }

        return page;
    }
}
