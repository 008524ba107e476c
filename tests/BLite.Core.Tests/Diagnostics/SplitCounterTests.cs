using BLite.Core.Diagnostics;

namespace BLite.Core.Tests.Diagnostics;

public sealed class SplitCounterTests
{
    [Fact]
    public void Additions_from_many_threads_through_their_slots_and_the_shared_cell_are_never_lost_and_the_total_never_goes_back()
    {
        const int threads = 6;
        const int additions = 20_000;
        var counter = new SplitCounter();
        var slots = new int[threads];
        var finished = 0;
        var totalsSeen = new List<long>();
        using var start = new Barrier(threads + 1);
        // Halfway through, the adders wait until the total has been read twice: on two cores a
        // reader left without a core until every adder ended would read nothing mid-way.
        using var readDuringAdds = new ManualResetEventSlim();
        var adders = Enumerable.Range(0, threads).Select(t => new Thread(() =>
        {
            slots[t] = ThreadSlot.Current;
            start.SignalAndWait();
            for (var i = 1; i <= additions; i++)
            {
                if (i == additions / 2)
                {
                    readDuringAdds.Wait();
                }

                if (i % 7 == 0)
                {
                    counter.Add(i);
                }
                else
                {
                    counter.Add(slots[t], i);
                }
            }

            Interlocked.Increment(ref finished);
        })).ToList();
        adders.ForEach(adder => adder.Start());
        start.SignalAndWait();
        while (Volatile.Read(ref finished) < threads)
        {
            totalsSeen.Add(counter.Value);
            if (totalsSeen.Count == 2)
            {
                readDuringAdds.Set();
            }
        }

        adders.ForEach(adder => adder.Join());

        Assert.Equal(threads, slots.Distinct().Count());
        Assert.Equal(threads * (long)additions * (additions + 1) / 2, counter.Value);
        Assert.True(totalsSeen.Count > 1, "the total was read while threads were adding");
        Assert.Equal(totalsSeen.Order(), totalsSeen);
    }

    [Fact]
    public void A_slot_beyond_the_cells_adds_to_the_shared_cell()
    {
        var counter = new SplitCounter();

        counter.Add(SplitCounter.MaxSlots + 3, 5);
        counter.Add(-1, 7);
        counter.Add(ThreadSlot.Current, 11);

        Assert.Equal(23, counter.Value);
    }

    [Fact]
    public void A_thread_keeps_its_slot_and_another_thread_gets_a_different_one()
    {
        var mine = ThreadSlot.Current;
        var other = -1;
        var thread = new Thread(() => other = ThreadSlot.Current);
        thread.Start();
        thread.Join();

        Assert.Equal(mine, ThreadSlot.Current);
        Assert.NotEqual(mine, other);
        Assert.True(other >= 0);
    }
}
