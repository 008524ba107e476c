using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections;
using BLite.Core.Tests.Collections;

namespace BLite.Core.Tests.ChangeFeed;

/// <summary>
/// Waking watchers costs a commit nothing when none waits (docs/changefeed.md, "Guarantees"),
/// and never loses a wakeup: a watcher takes the signal before it reads, so a commit that lands
/// between its read and its wait still wakes it.
/// </summary>
public sealed class ChangeFeedSignalTests
{
    private static readonly CollectionDefinition[] Orders = [new("orders", changeFeed: ChangeFeedMode.On)];

    [Fact]
    public async Task A_commit_that_lands_between_a_watchers_read_and_its_wait_wakes_it()
    {
        using var test = new CollectionsTestDatabase(Orders);
        var orders = test.Collection("orders");
        var hub = test.Database.ChangeFeed;
        var landed = 0;

        // The hook runs on the watcher, after it found the journal caught up and before it waits.
        hub.BeforeWatcherWaits = () =>
        {
            if (landed++ == 0)
            {
                orders.Insert(new BsonDocument { ["_id"] = 1 });
            }
        };

        using var cancel = new CancellationTokenSource();
        var watcher = test.Database.ReadChanges(test.Database.ResolveStart(ChangeFeedStart.Now), JournalFilter.All, cancel.Token).GetAsyncEnumerator(cancel.Token);
        try
        {
            var next = watcher.MoveNextAsync();

            // The commit completed the signal the watcher took before its read, so its wait returned
            // at once and it read the event, all within this call: no other commit, no waiting.
            Assert.True(next.IsCompleted, "the watcher missed the commit that landed before its wait");
            Assert.True(await next);
            Assert.Equal(1, landed);
            Assert.Equal(1UL, watcher.Current.Sequence);
            Assert.Equal(1, BsonDocument.FromBytes(watcher.Current.Id, test.Database.Fields)["_id"].AsInt32);
        }
        finally
        {
            hub.BeforeWatcherWaits = null;
            await cancel.CancelAsync();
            await watcher.DisposeAsync();
        }
    }

    [Fact]
    public void A_signal_with_no_watcher_waiting_allocates_nothing_and_a_waiting_one_is_woken_once()
    {
        using var test = new CollectionsTestDatabase(Orders);
        var hub = test.Database.ChangeFeed;
        hub.Signal();

        var allocated = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < 100; i++)
        {
            hub.Signal();
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - allocated);

        // Watchers that take the signal before the same commit share it; the commit completes it once.
        var first = hub.NextCommit;
        var second = hub.NextCommit;
        Assert.Same(first, second);
        Assert.False(first.IsCompleted);
        hub.Signal();
        Assert.True(first.IsCompletedSuccessfully);

        // A signal taken after that commit waits for the next one.
        var later = hub.NextCommit;
        Assert.NotSame(first, later);
        Assert.False(later.IsCompleted);
        test.Collection("orders").Insert(new BsonDocument { ["_id"] = 1 });
        Assert.True(later.IsCompletedSuccessfully);
    }
}
