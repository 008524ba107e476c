using System.Linq.Expressions;
using System.Reflection;
using System.Runtime.CompilerServices;
using BLite.Linq.Translation;

namespace BLite.Linq.Execution;

/// <summary>
/// A pushed-down selector that only hands stored members to a constructor
/// (<c>new { o.Id, o.Total }</c>, <c>new Card(o.Status, o.Total)</c>): the row already holds each
/// argument at its parameter's type (a null only where the type allows one, the row reader has
/// checked), so the constructor is called on the row directly instead of interpreting the selector.
/// </summary>
internal sealed class RowConstructor
{
    private static readonly ConditionalWeakTable<LambdaExpression, Holder> Cache = new();

    private readonly int[] _slots;
    private readonly ConstructorInvoker _invoker;

    private RowConstructor(int[] slots, ConstructorInvoker invoker)
    {
        _slots = slots;
        _invoker = invoker;
    }

    /// <summary>The constructor call of <paramref name="selector"/>, or null when it computes anything (the interpreter runs it then).</summary>
    public static RowConstructor? Of(LambdaExpression selector, IReadOnlyList<Type> slotTypes) =>
        // Looked up first so a repeated query does not allocate the factory closure it would not call.
        Cache.TryGetValue(selector, out var cached) ? cached.Constructor : Cache.GetValue(selector, lambda => new Holder(Create(lambda, slotTypes))).Constructor;

    private static RowConstructor? Create(LambdaExpression selector, IReadOnlyList<Type> slotTypes)
    {
        if (selector.Body is not NewExpression { Constructor: { } constructor } construction
            || !construction.Arguments.All(a => a is ProjectedFieldExpression field && field.Type == slotTypes[field.Slot]))
        {
            return null;
        }

        return new RowConstructor(construction.Arguments.Select(a => ((ProjectedFieldExpression)a).Slot).ToArray(), ConstructorInvoker.Create(constructor));
    }

    public object Invoke(object?[] row)
    {
        var slots = _slots;
        return slots.Length switch
        {
            0 => _invoker.Invoke(),
            1 => _invoker.Invoke(row[slots[0]]),
            2 => _invoker.Invoke(row[slots[0]], row[slots[1]]),
            3 => _invoker.Invoke(row[slots[0]], row[slots[1]], row[slots[2]]),
            4 => _invoker.Invoke(row[slots[0]], row[slots[1]], row[slots[2]], row[slots[3]]),
            _ => _invoker.Invoke(new Span<object?>(slots.Select(slot => row[slot]).ToArray())),
        };
    }

    /// <summary>Caches "no direct constructor" too.</summary>
    private sealed record Holder(RowConstructor? Constructor);
}
