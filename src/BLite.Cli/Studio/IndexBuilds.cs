using System.Collections.Concurrent;

namespace BLite.Cli.Studio;

/// <summary>
/// Index builds the studio is running or ran last, per collection and index name, so the page can
/// poll how many documents a build has read while its request is still waiting for the commit.
/// </summary>
internal sealed class IndexBuilds
{
    private readonly ConcurrentDictionary<(string Collection, string Index), IndexBuild> _builds = new();

    public IndexBuild Start(string collection, string index, long total)
    {
        var build = new IndexBuild(total);
        _builds[(collection, index)] = build;
        return build;
    }

    public IndexBuild? Find(string collection, string index) => _builds.TryGetValue((collection, index), out var build) ? build : null;
}

/// <summary>One build's progress: documents read of the collection's count when it began.</summary>
internal sealed class IndexBuild(long total) : IProgress<long>
{
    private long _read;
    private int _finished;

    public long Total { get; } = total;

    public long Read => Interlocked.Read(ref _read);

    public bool Finished => Volatile.Read(ref _finished) == 1;

    public void Report(long value) => Interlocked.Exchange(ref _read, value);

    public void Finish() => Volatile.Write(ref _finished, 1);
}
