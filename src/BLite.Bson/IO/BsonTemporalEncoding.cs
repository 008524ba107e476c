using System.Runtime.CompilerServices;

namespace BLite.Bson;

/// <summary>Packing and validation of the BLite date and time extension types.</summary>
internal static class BsonTemporalEncoding
{
    private const int KindShift = 62;
    private const ulong TicksMask = (1UL << KindShift) - 1;
    private const short MaxOffsetMinutes = 14 * 60;

    // DateTime's ticks never exceed 2^62, so the Kind fits in the two top bits of one 8-byte word.
    public static ulong PackDateTime(DateTime value) => (ulong)value.Ticks | ((ulong)value.Kind << KindShift);

    // Inlined into generated readers (a document holds several dates), with the messages out of line.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static DateTime UnpackDateTime(ulong packed, long offset)
    {
        var ticks = (long)(packed & TicksMask);
        var kind = (int)(packed >> KindShift);
        if (kind > (int)DateTimeKind.Local || ticks > DateTime.MaxValue.Ticks)
        {
            ThrowInvalidDateTime(ticks, kind, offset);
        }

        return new DateTime(ticks, (DateTimeKind)kind);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowInvalidDateTime(long ticks, int kind, long offset) =>
        throw (kind > (int)DateTimeKind.Local
            ? new BsonFormatException($"DateTime kind {kind} is not a DateTimeKind", offset)
            : new BsonFormatException($"DateTime ticks {ticks} exceed DateTime.MaxValue", offset));

    public static DateTimeOffset MakeDateTimeOffset(long utcTicks, short offsetMinutes, long offset)
    {
        if (offsetMinutes is < -MaxOffsetMinutes or > MaxOffsetMinutes)
        {
            throw new BsonFormatException($"DateTimeOffset offset {offsetMinutes} minutes is outside ±14 hours", offset);
        }

        var offsetTicks = offsetMinutes * TimeSpan.TicksPerMinute;
        if (utcTicks < 0 || utcTicks > DateTime.MaxValue.Ticks
            || utcTicks + offsetTicks < 0 || utcTicks + offsetTicks > DateTime.MaxValue.Ticks)
        {
            throw new BsonFormatException($"DateTimeOffset UTC ticks {utcTicks} with offset {offsetMinutes} minutes are out of range", offset);
        }

        return new DateTimeOffset(utcTicks + offsetTicks, TimeSpan.FromTicks(offsetTicks));
    }

    public static DateOnly MakeDateOnly(int dayNumber, long offset)
    {
        if (dayNumber < 0 || dayNumber > DateOnly.MaxValue.DayNumber)
        {
            throw new BsonFormatException($"DateOnly day number {dayNumber} is out of range", offset);
        }

        return DateOnly.FromDayNumber(dayNumber);
    }

    public static TimeOnly MakeTimeOnly(long ticks, long offset)
    {
        if (ticks < 0 || ticks > TimeOnly.MaxValue.Ticks)
        {
            throw new BsonFormatException($"TimeOnly ticks {ticks} are out of range", offset);
        }

        return new TimeOnly(ticks);
    }
}
