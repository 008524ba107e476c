using BLite.Core.Storage;

namespace BLite.Benchmarks.Indexing;

/// <summary>
/// Plain in-memory pages for measuring the tree alone: writes go straight to the page array
/// (no copy-on-write, no transaction), so figures show the cost of the tree's own work.
/// </summary>
internal sealed class BenchmarkPages(int pagePayloadSize) : IPageWriter
{
    private readonly List<byte[]> _pages = [new byte[pagePayloadSize], new byte[pagePayloadSize]];
    private readonly Stack<uint> _free = new();

    public int PagePayloadSize { get; } = pagePayloadSize;

    public int PageCount => _pages.Count - _free.Count;

    public ReadOnlyMemory<byte> ReadPage(uint pageId) => _pages[(int)pageId];

    public Memory<byte> WritePage(uint pageId) => _pages[(int)pageId];

    public uint AllocatePage()
    {
        if (_free.TryPop(out var pageId))
        {
            Array.Clear(_pages[(int)pageId]);
            return pageId;
        }
        _pages.Add(new byte[PagePayloadSize]);
        return (uint)(_pages.Count - 1);
    }

    public void FreePage(uint pageId) => _free.Push(pageId);
}
