using System.Runtime.CompilerServices;

namespace BLite.Linq;

/// <summary>Helpers for the collections' <c>IAsyncEnumerable</c> operations.</summary>
internal static class AsyncStreams
{
    /// <summary>
    /// Binds the token given to the operation to the stream, so that it cancels the enumeration as
    /// the token given to <c>WithCancellation</c> does (either one cancels).
    /// </summary>
    public static async IAsyncEnumerable<T> Bind<T>(IAsyncEnumerable<T> source, CancellationToken bound, [EnumeratorCancellation] CancellationToken enumerated = default)
    {
        using var linked = bound.CanBeCanceled && enumerated.CanBeCanceled ? CancellationTokenSource.CreateLinkedTokenSource(bound, enumerated) : null;
        var token = linked?.Token ?? (bound.CanBeCanceled ? bound : enumerated);
        await foreach (var item in source.WithCancellation(token).ConfigureAwait(false))
        {
            yield return item;
        }
    }
}
