using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// Opens read-only views of a database, one after another, while a writer commits and
/// checkpoints under them: each view either reads a whole snapshot (the check passes) or is told
/// to reopen. Runs at least 300 views, and on until the writer has checkpointed four times under
/// them, the writer stops or <paramref name="maxViews"/> is reached; asserts the race happened.
/// </summary>
internal static class ReadOnlyViewRace
{
    public static async Task RunAsync(TestDatabase db, StorageOptions viewOptions, Action<IPageWriter, long> commitValue, Action<ReadTransaction> checkView, int maxViews, long maxCommits = long.MaxValue)
    {
        var checkpointsBefore = db.Engine.GetStatistics().Checkpoints;
        using var stop = new CancellationTokenSource();
        var firstCommit = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var writer = Task.Run(() =>
        {
            for (long value = 1; value <= maxCommits && !stop.IsCancellationRequested; value++)
            {
                using var tx = db.Engine.BeginWrite();
                commitValue(tx, value);
                tx.Commit();
                firstCommit.TrySetResult();
            }
        });

        var whole = 0;
        var toldToReopen = 0;
        var views = 0;
        try
        {
            await firstCommit.Task;
            for (; views < 300 || (views < maxViews && !writer.IsCompleted && db.Engine.GetStatistics().Checkpoints <= checkpointsBefore + 3); views++)
            {
                try
                {
                    using var engine = StorageEngine.Open(db.Path, viewOptions);
                    using var read = engine.BeginRead();
                    checkView(read);
                    whole++;
                }
                catch (BLiteException exception) when (exception.Message.Contains("changed by a writer", StringComparison.Ordinal))
                {
                    toldToReopen++;
                }
            }
        }
        finally
        {
            stop.Cancel();
            await writer;
        }

        Assert.Equal(views, whole + toldToReopen);
        Assert.True(whole > 0, "no view read a snapshot");
        Assert.True(db.Engine.GetStatistics().Checkpoints > checkpointsBefore + 3, "the writer did not checkpoint under the views");
    }
}
