using BLite.Bson.Mapping;

namespace BLite.Bson.Tests;

public sealed class ArrayItemBufferTests
{
    // Around the inline capacity (8), the first rented array (32) and its regrowth.
    public static TheoryData<int> Counts => new() { 0, 1, 7, 8, 9, 31, 32, 33, 65, 1000 };

    [Theory]
    [MemberData(nameof(Counts))]
    public void A_list_holds_every_item_in_order_at_its_exact_size(int count)
    {
        var buffer = new ArrayItemBuffer<string>();
        for (var i = 0; i < count; i++)
        {
            buffer.Add("item " + i);
        }

        Assert.Equal(count, buffer.Count);
        var list = buffer.ToList();

        Assert.Equal(Enumerable.Range(0, count).Select(i => "item " + i), list);
        Assert.Equal(count, list.Capacity);
        Assert.Equal(0, buffer.Count);
    }

    [Theory]
    [MemberData(nameof(Counts))]
    public void An_array_of_values_holds_every_item_in_order(int count)
    {
        var buffer = new ArrayItemBuffer<decimal>();
        for (var i = 0; i < count; i++)
        {
            buffer.Add(i + 0.5m);
        }

        Assert.Equal(Enumerable.Range(0, count).Select(i => i + 0.5m), buffer.ToArray());
    }

    [Theory]
    [MemberData(nameof(Counts))]
    public void A_set_keeps_one_of_each_value(int count)
    {
        var buffer = new ArrayItemBuffer<int>();
        for (var i = 0; i < count; i++)
        {
            buffer.Add(i % 10);
        }

        Assert.Equal(Enumerable.Range(0, Math.Min(count, 10)).ToHashSet(), buffer.ToHashSet());
    }

    [Fact]
    public void A_buffer_is_empty_again_after_its_collection_is_made_and_can_be_refilled()
    {
        var buffer = new ArrayItemBuffer<string>();
        for (var i = 0; i < 40; i++)
        {
            buffer.Add("a" + i);
        }

        Assert.Equal(40, buffer.ToArray().Length);

        buffer.Add("again");
        Assert.Equal(["again"], buffer.ToList());
    }
}
