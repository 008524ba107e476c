using System.Diagnostics;
using BLite.Core.Collections;
using BLite.Core.Diagnostics;

namespace BLite.Core.Query;

/// <summary>
/// The <c>query</c> activity of a lazily enumerated query: started when enumeration starts, stopped
/// when it ends, fails or is disposed, tagged with the database, the collection, the plan kind
/// (<c>blite.query.plan</c>: index or scan) and the rows returned. Only wrapped around a query when
/// something listens to the activity source, so an unobserved query pays one check.
/// </summary>
internal static class QueryActivity
{
    public static IEnumerable<ReadOnlyMemory<byte>> Trace(IEnumerable<ReadOnlyMemory<byte>> rows, RawCollection collection, string planKind)
    {
        var activity = Start(collection, planKind);
        long returned = 0;
        try
        {
            using var enumerator = rows.GetEnumerator();
            while (MoveNext(enumerator, activity))
            {
                returned++;
                yield return enumerator.Current;
            }
        }
        finally
        {
            Stop(activity, returned);
        }
    }

    private static Activity? Start(RawCollection collection, string planKind)
    {
        var caller = Activity.Current;
        var tags = new TagList(collection.TelemetryTags) { { "db.operation.name", "query" }, { "blite.query.plan", planKind } };
        var activity = BLiteTelemetry.ActivitySource.StartActivity("query", ActivityKind.Internal, parentContext: default, tags);
        if (activity is not null)
        {
            activity.DisplayName = "query " + collection.Name;

            // The caller's code runs between rows; it should not become a child of the query.
            Activity.Current = caller;
        }

        return activity;
    }

    private static bool MoveNext(IEnumerator<ReadOnlyMemory<byte>> rows, Activity? activity)
    {
        try
        {
            return rows.MoveNext();
        }
        catch (Exception exception) when (activity is not null)
        {
            activity.SetStatus(ActivityStatusCode.Error, exception.Message);
            activity.SetTag("error.type", exception.GetType().FullName);
            throw;
        }
    }

    private static void Stop(Activity? activity, long returned)
    {
        if (activity is null)
        {
            return;
        }

        activity.SetTag("db.response.returned_rows", returned);

        // Stop makes the query's parent current again; whatever the caller has made current since stays so.
        var current = Activity.Current;
        activity.Stop();
        Activity.Current = current;
    }
}
