namespace BLite.Tests.ChangeFeed;

internal static class ChangeStreams
{
    /// <summary>The first <paramref name="count"/> events (or up to the one <paramref name="stopAt"/> accepts).</summary>
    public static async Task<List<ChangeEvent<TId, T>>> Take<TId, T>(IAsyncEnumerable<ChangeEvent<TId, T>> stream, int count, Func<ChangeEvent<TId, T>, bool>? stopAt = null)
    {
        // A safety net against a hang, not a synchronisation: every test ends far sooner.
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        var events = new List<ChangeEvent<TId, T>>();
        await foreach (var change in stream.WithCancellation(timeout.Token))
        {
            events.Add(change);
            if (events.Count == count || (stopAt?.Invoke(change) ?? false))
            {
                break;
            }
        }

        return events;
    }
}
