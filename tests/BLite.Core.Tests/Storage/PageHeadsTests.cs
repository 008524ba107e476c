using BLite.Core.Storage.Paging;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// The page table's heads by page id: a chunked array that grows without rehashing, which must
/// behave exactly as the hash table it replaced, for dense ids, ids far apart and removals.
/// </summary>
public class PageHeadsTests
{
    [Fact]
    public void Heads_are_found_by_page_id_across_chunks_and_far_apart()
    {
        var heads = new PageHeads();
        uint[] present = [0, 1, 4095, 4096, 8191, 100_000, 5_000_000];
        foreach (var pageId in present)
        {
            heads.Set(pageId, Version(pageId));
        }

        Assert.Equal(present.Length, heads.Count);
        Assert.All(present, pageId => Assert.Equal(pageId, heads.Get(pageId)!.PageId));
        Assert.All(new uint[] { 2, 4097, 99_999, 6_000_000, uint.MaxValue }, pageId => Assert.Null(heads.Get(pageId)));
    }

    [Fact]
    public void A_new_head_replaces_the_old_one_and_a_removed_page_is_forgotten()
    {
        var heads = new PageHeads();
        var first = Version(10);
        var second = Version(10);
        heads.Set(10, first);
        heads.Set(10, second);
        Assert.Equal(1, heads.Count);
        Assert.Same(second, heads.Get(10));

        heads.Remove(10);
        heads.Remove(10);
        heads.Remove(9_000_000);
        Assert.Equal(0, heads.Count);
        Assert.Null(heads.Get(10));
    }

    [Fact]
    public void Matches_a_dictionary_over_random_sets_and_removes()
    {
        var random = new Random(2611);
        var heads = new PageHeads();
        var model = new Dictionary<uint, PageVersion>();
        var largest = 0;
        for (var step = 0; step < 20_000; step++)
        {
            var pageId = (uint)(random.Next(3) == 0 ? random.Next(1_000_000) : random.Next(20_000));
            if (random.Next(4) == 0)
            {
                heads.Remove(pageId);
                model.Remove(pageId);
            }
            else
            {
                var version = Version(pageId);
                heads.Set(pageId, version);
                model[pageId] = version;
            }

            Assert.Equal(model.Count, heads.Count);
            Assert.Same(model.GetValueOrDefault(pageId), heads.Get(pageId));
            largest = Math.Max(largest, model.Count);
        }

        // The run spread pages over many chunks of 4,096 ids before checking every one of them.
        Assert.True(largest > 10_000, $"at most {largest} heads at once");
        foreach (var (pageId, version) in model)
        {
            Assert.Same(version, heads.Get(pageId));
        }

        for (uint pageId = 0; pageId < 20_000; pageId++)
        {
            Assert.Same(model.GetValueOrDefault(pageId), heads.Get(pageId));
        }
    }

    private static PageVersion Version(uint pageId) => new(pageId, 1, PageVersion.InMainFile, null);
}
