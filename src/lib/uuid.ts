/** A UUID as the database writes it (any case). Its own module: item routes check ids without loading the admin schemas. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
