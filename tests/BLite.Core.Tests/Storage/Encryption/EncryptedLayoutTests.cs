using BLite.Core.Storage.Encryption;

namespace BLite.Core.Tests.Storage.Encryption;

/// <summary>The arithmetic of format 2's file layout, across several groups of pages and map pages.</summary>
public class EncryptedLayoutTests
{
    [Theory]
    [InlineData(4096)]
    [InlineData(16384)]
    public void Every_page_has_its_own_place_between_the_map_pages_and_lengths_round_trip(int pageSize)
    {
        var layout = new EncryptedLayout(pageSize);
        var pages = (uint)(layout.PagesPerGroup * 3) + 7;
        var mapPlaces = new HashSet<long>();
        for (var group = 0; group < 4; group++)
        {
            Assert.True(mapPlaces.Add(layout.MapOffset(group, 0)));
            Assert.True(mapPlaces.Add(layout.MapOffset(group, 1)));
            Assert.Null(layout.PageAt(layout.MapOffset(group, 1)));
        }

        var previous = 0L;
        for (uint page = 0; page < pages; page++)
        {
            var offset = layout.PageOffset(page);
            Assert.True(offset > previous && offset % pageSize == 0);
            Assert.DoesNotContain(offset, mapPlaces);
            Assert.Equal(page, layout.PageAt(offset));
            Assert.Equal(page, layout.PageAt(offset + pageSize - 1));
            Assert.Equal((page + 1L) * pageSize, layout.LogicalLength(offset + pageSize));
            Assert.Equal(offset + pageSize, layout.PhysicalLength((page + 1L) * pageSize));
            previous = offset;
        }

        Assert.Null(layout.PageAt(0));
        Assert.Equal(0, layout.LogicalLength(pageSize));
    }
}
