namespace BLite.Core.Transactions;

/// <summary>
/// The counter values one write transaction sets. Nearly every transaction sets one counter
/// (the count of the collection it writes), so the first is kept inline and only a transaction
/// touching several collections allocates a dictionary.
/// </summary>
internal struct CounterChanges
{
    private uint _firstKey;
    private long _firstValue;
    private bool _hasFirst;
    private Dictionary<uint, long>? _more;

    public readonly bool IsEmpty => !_hasFirst;

    public readonly bool TryGet(uint key, out long value)
    {
        if (_hasFirst && _firstKey == key)
        {
            value = _firstValue;
            return true;
        }

        value = 0;
        return _more is not null && _more.TryGetValue(key, out value);
    }

    public void Set(uint key, long value)
    {
        if (!_hasFirst || _firstKey == key)
        {
            _firstKey = key;
            _firstValue = value;
            _hasFirst = true;
            return;
        }

        (_more ??= [])[key] = value;
    }

    public void Clear() => this = default;

    public readonly Enumerator GetEnumerator() => new(this);

    public struct Enumerator
    {
        private readonly CounterChanges _changes;
        private Dictionary<uint, long>.Enumerator _more;
        private int _state;

        internal Enumerator(CounterChanges changes)
        {
            _changes = changes;
            _more = changes._more?.GetEnumerator() ?? default;
            _state = 0;
            Current = default;
        }

        public (uint Key, long Value) Current { get; private set; }

        public bool MoveNext()
        {
            if (_state == 0)
            {
                _state = 1;
                if (_changes._hasFirst)
                {
                    Current = (_changes._firstKey, _changes._firstValue);
                    return true;
                }

                return false;
            }

            if (_changes._more is not null && _more.MoveNext())
            {
                Current = (_more.Current.Key, _more.Current.Value);
                return true;
            }

            return false;
        }
    }
}
