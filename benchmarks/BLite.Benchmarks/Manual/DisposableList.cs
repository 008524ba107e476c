using System.Runtime.ExceptionServices;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// What a scenario opens for every engine at once (stores, sessions, worker rounds), disposed
/// together in reverse order of opening, so workers stop before the sessions they use close, and
/// one failing disposal does not leak the rest.
/// </summary>
internal sealed class DisposableList<T> : IDisposable, IReadOnlyList<T>
    where T : IDisposable
{
    private readonly List<T> _items = [];

    public int Count => _items.Count;

    public T this[int index] => _items[index];

    /// <summary>Adds <paramref name="item"/> and returns it, typed as it was given.</summary>
    public TItem Add<TItem>(TItem item)
        where TItem : T
    {
        _items.Add(item);
        return item;
    }

    public void Dispose()
    {
        ExceptionDispatchInfo? firstFailure = null;
        for (var i = _items.Count - 1; i >= 0; i--)
        {
            try
            {
                _items[i].Dispose();
            }
            catch (Exception exception)
            {
                firstFailure ??= ExceptionDispatchInfo.Capture(exception);
            }
        }

        _items.Clear();
        firstFailure?.Throw();
    }

    public IEnumerator<T> GetEnumerator() => _items.GetEnumerator();

    System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();
}
