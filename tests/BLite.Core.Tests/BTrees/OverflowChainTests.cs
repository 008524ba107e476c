using BLite.Core.Storage;

namespace BLite.Core.Tests.BTrees;

public sealed class OverflowChainTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(500)]
    [InlineData(501)]
    [InlineData(10_000)]
    public void A_value_round_trips_through_as_many_pages_as_it_needs(int length)
    {
        var pages = new InMemoryPages(512);
        var value = TestKeys.Value(length, length);

        var first = OverflowChain.Write(pages, value);

        Assert.Equal(OverflowChain.PageCount(length, 512), pages.LivePages.Count);
        Assert.Equal(value, OverflowChain.Read(pages, first, length));
        var claimed = new HashSet<uint>();
        Assert.Null(OverflowChain.Check(pages, first, length, claimed.Add));
        Assert.Equal(pages.LivePages, claimed);

        OverflowChain.Free(pages, first);
        Assert.Empty(pages.LivePages);
    }

    [Fact]
    public void An_empty_value_is_rejected()
    {
        var pages = new InMemoryPages(512);
        Assert.Throws<ArgumentException>(() => OverflowChain.Write(pages, []));
    }

    [Fact]
    public void Reading_more_than_the_chain_holds_throws_corruption()
    {
        var pages = new InMemoryPages(512);
        var first = OverflowChain.Write(pages, TestKeys.Value(100, 1));

        Assert.Throws<BLiteCorruptionException>(() => OverflowChain.Read(pages, first, 101));
    }
}
