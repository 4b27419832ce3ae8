<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es">
  <context>
    <name>Cashier</name>
    <message>
      <source>{name}: column titles</source>
      <translation>{name}: títulos de columna</translation>
    </message>
    <message>
      <source>{name}: row numbers</source>
      <translation>{name}: números de fila</translation>
    </message>
    <message>
      <source>Printer: ready</source>
      <translation>Impresora: lista</translation>
    </message>
    <message>
      <source>Printer: paper low — change the roll soon</source>
      <translation>Impresora: queda poco papel — cambie el rollo pronto</translation>
    </message>
    <message>
      <source>Printer: out of paper — load a roll, then reprint from the journal</source>
      <translation>Impresora: sin papel — ponga un rollo y reimprima desde el diario</translation>
    </message>
    <message>
      <source>Printer: offline — reprint from the journal</source>
      <translation>Impresora: sin conexión — reimprima desde el diario</translation>
    </message>
    <message>
      <source>The host refused this gift card request.</source>
      <translation>El host rechazó esta operación de tarjeta de regalo.</translation>
    </message>
    <message>
      <source>Amount</source>
      <translation>Importe</translation>
    </message>
    <message>
      <source>Tip</source>
      <translation>Propina</translation>
    </message>
    <message>
      <source>Tax</source>
      <translation>Impuesto</translation>
    </message>
    <message>
      <source>PIN</source>
      <translation>PIN</translation>
    </message>
    <message>
      <source>Manager</source>
      <translation>Gerente</translation>
    </message>
    <message>
      <source>Clerk</source>
      <translation>Cajero</translation>
    </message>
    <message>
      <source>Reason</source>
      <translation>Motivo</translation>
    </message>
    <message>
      <source>Float</source>
      <translation>Fondo</translation>
    </message>
    <message>
      <source>Counted cash</source>
      <translation>Efectivo contado</translation>
    </message>
    <message>
      <source>Card</source>
      <translation>Tarjeta</translation>
    </message>
    <message>
      <source>Invoice</source>
      <translation>Factura</translation>
    </message>
    <message>
      <source>Ticket</source>
      <translation>Ticket</translation>
    </message>
    <message>
      <source>Line</source>
      <translation>Línea</translation>
    </message>
    <message>
      <source>Cash</source>
      <translation>Efectivo</translation>
    </message>
    <message>
      <source>must be greater than zero</source>
      <translation>debe ser mayor que cero</translation>
    </message>
    <message>
      <source>must not be negative</source>
      <translation>no puede ser negativo</translation>
    </message>
    <message>
      <source>is empty: type an amount such as 12.50</source>
      <translation>está vacío: teclee un importe como 12.50</translation>
    </message>
    <message>
      <source>must have at most one decimal point</source>
      <translation>debe tener como máximo un punto decimal</translation>
    </message>
    <message>
      <source>must not contain separators (commas, underscores, spaces): type 1234.50</source>
      <translation>no debe llevar separadores (comas, guiones bajos, espacios): teclee 1234.50</translation>
    </message>
    <message>
      <source>must be a number such as 12.50 (digits 0-9 and at most one decimal point)</source>
      <translation>debe ser un número como 12.50 (dígitos 0-9 y como máximo un punto decimal)</translation>
    </message>
    <message>
      <source>must not use an exponent (1E+2): type the amount in full</source>
      <translation>no debe usar exponente (1E+2): teclee el importe completo</translation>
    </message>
    <message>
      <source>must use the digits 0-9 only (full-width or other-script digits are refused)</source>
      <translation>solo admite los dígitos 0-9 (se rechazan los de ancho completo o de otras escrituras)</translation>
    </message>
    <message>
      <source>has no lines: add an item or an amount first</source>
      <translation>no tiene líneas: añada primero un artículo o un importe</translation>
    </message>
    <message>
      <source>the drawer is closed: open it first on the Drawer screen (Ctrl+9)</source>
      <translation>el cajón está cerrado: ábralo primero en la pantalla Cajón (Ctrl+9)</translation>
    </message>
    <message>
      <source>the drawer is counted and waiting for a manager to close it: open the drawer again first</source>
      <translation>el cajón está contado y espera a que un encargado lo cierre: abra de nuevo el cajón primero</translation>
    </message>
    <message>
      <source>ticket {ticket} is {state}, not open</source>
      <translation>el tique {ticket} está {state}, no abierto</translation>
    </message>
    <message>
      <source>a tender has been applied: cancel the ticket to change its lines</source>
      <translation>ya se aplicó un pago: anule el tique para cambiar sus líneas</translation>
    </message>
    <message>
      <source>there is no such line on the ticket</source>
      <translation>esa línea no está en el tique</translation>
    </message>
    <message>
      <source>has no lines: there is nothing to park</source>
      <translation>no tiene líneas: no hay nada que aparcar</translation>
    </message>
    <message>
      <source>a tender has been applied: finish or cancel the ticket instead of parking it</source>
      <translation>ya se aplicó un pago: termine o cancele el tique en lugar de aparcarlo</translation>
    </message>
    <message>
      <source>ticket {ticket} is already parked</source>
      <translation>el tique {ticket} ya está aparcado</translation>
    </message>
    <message>
      <source>ticket {ticket} is not parked</source>
      <translation>el tique {ticket} no está aparcado</translation>
    </message>
    <message>
      <source>ticket {ticket} is on the counter: park it or finish it first</source>
      <translation>el tique {ticket} está en el mostrador: apárquelo o termínelo primero</translation>
    </message>
    <message>
      <source>there is no open ticket to park</source>
      <translation>no hay ningún tique abierto que aparcar</translation>
    </message>
    <message>
      <source>a ticket has at most {most} lines</source>
      <translation>un tique tiene como máximo {most} líneas</translation>
    </message>
    <message>
      <source>the ticket's total must be at most {limit}</source>
      <translation>el total del tique debe ser como máximo {limit}</translation>
    </message>
    <message>
      <source>the tip was already taken for this ticket</source>
      <translation>la propina de este tique ya se tomó</translation>
    </message>
    <message>
      <source>key the tip before the first tender</source>
      <translation>teclee la propina antes del primer pago</translation>
    </message>
    <message>
      <source>ticket {ticket}: a tender is still being checked with the host: wait for its outcome</source>
      <translation>tique {ticket}: un pago se está comprobando aún con el host: espere su resultado</translation>
    </message>
    <message>
      <source>a tender is still being checked with the host: wait for its outcome before another tender</source>
      <translation>un pago se está comprobando aún con el host: espere su resultado antes de otro pago</translation>
    </message>
    <message>
      <source>must be at most {limit} (this till's limit for one payment)</source>
      <translation>debe ser como máximo {limit} (el límite de esta caja para un pago)</translation>
    </message>
    <message>
      <source>amount and tip together must be at most {limit} (this till's limit for one payment)</source>
      <translation>el importe y la propina juntos deben ser como máximo {limit} (el límite de esta caja para un pago)</translation>
    </message>
    <message>
      <source>{tendered} is more than the {remaining} that remains by {over}: at most {largest_note} over (the largest note this till takes)</source>
      <translation>{tendered} supera en {over} los {remaining} que quedan: como máximo {largest_note} de más (el billete más grande que toma esta caja)</translation>
    </message>
    <message>
      <source>must not be more than the amount ({amount}): a larger tip is almost always a typing slip; key it again</source>
      <translation>no debe ser mayor que el importe ({amount}): una propina mayor casi siempre es un error al teclear; vuelva a teclearla</translation>
    </message>
    <message>
      <source>paid</source>
      <translation>pagado</translation>
    </message>
    <message>
      <source>cancelled</source>
      <translation>anulado</translation>
    </message>
    <message>
      <source>open</source>
      <translation>abierto</translation>
    </message>
    <message>
      <source>unknown</source>
      <translation>desconocido</translation>
    </message>
    <message>
      <source>No drawer is open: open it with a float on the Drawer screen (Ctrl+9).</source>
      <translation>No hay ningún cajón abierto: ábralo con un fondo en la pantalla Cajón (Ctrl+9).</translation>
    </message>
    <message>
      <source>A drawer is already open at this till: close it before opening another.</source>
      <translation>Ya hay un cajón abierto en esta caja: ciérrelo antes de abrir otro.</translation>
    </message>
    <message>
      <source>The drawer is counted and waits for a manager to close it.</source>
      <translation>El cajón está contado y espera a que un encargado lo cierre.</translation>
    </message>
    <message>
      <source>Reason: say what the cash is for.</source>
      <translation>Motivo: diga para qué es el efectivo.</translation>
    </message>
    <message>
      <source>This till has no receipt printer in its profile.</source>
      <translation>Esta caja no tiene impresora de tiques en su perfil.</translation>
    </message>
    <message>
      <source>No drawer has been closed yet: a Z report comes with the close.</source>
      <translation>Aún no se ha cerrado ningún cajón: el informe Z llega con el cierre.</translation>
    </message>
    <message>
      <source>No clerk of this till has that PIN.</source>
      <translation>Ningún cajero de esta caja tiene ese PIN.</translation>
    </message>
    <message>
      <source>No manager of this till has that PIN.</source>
      <translation>Ningún gerente de esta caja tiene ese PIN.</translation>
    </message>
    <message>
      <source>Wrong manager PIN.</source>
      <translation>PIN de gerente incorrecto.</translation>
    </message>
    <message>
      <source>%s needs a manager's approval.</source>
      <translation>%s necesita la aprobación de un gerente.</translation>
    </message>
    <message>
      <source>This is not a gift card number the host knows: check the number.</source>
      <translation>El host no conoce este número de tarjeta de regalo: revise el número.</translation>
    </message>
    <message>
      <source>The host does not know this gift card's token: key or scan the card again.</source>
      <translation>El host no conoce el token de esta tarjeta de regalo: teclee o escanee la tarjeta de nuevo.</translation>
    </message>
    <message>
      <source>This gift card is already active.</source>
      <translation>Esta tarjeta de regalo ya está activa.</translation>
    </message>
    <message>
      <source>This gift card is not deactivated: there is nothing to reactivate.</source>
      <translation>Esta tarjeta de regalo no está desactivada: no hay nada que reactivar.</translation>
    </message>
    <message>
      <source>There is no gift card request of this card to cancel.</source>
      <translation>No hay ninguna operación de esta tarjeta de regalo que cancelar.</translation>
    </message>
    <message>
      <source>A sale, refund or void cannot be cancelled: void it from the Journal.</source>
      <translation>Una venta, devolución o anulación no se puede cancelar: anúlela desde el Diario.</translation>
    </message>
    <message>
      <source>This gift card is not active: activate it first (F3).</source>
      <translation>Esta tarjeta de regalo no está activa: actívela primero (F3).</translation>
    </message>
    <message>
      <source>%s of %s %% needs a manager's approval.</source>
      <translation>%s de %s %% necesita la aprobación de un gerente.</translation>
    </message>
    <message>
      <source>%s of %s needs a manager's approval.</source>
      <translation>%s de %s necesita la aprobación de un gerente.</translation>
    </message>
    <message>
      <source>pending</source>
      <translation>pendiente</translation>
    </message>
    <message>
      <source>expired</source>
      <translation>vencido</translation>
    </message>
    <message>
      <source>reversed</source>
      <translation>revertido</translation>
    </message>
    <message>
      <source>The printer is ready.</source>
      <translation>La impresora está lista.</translation>
    </message>
    <message>
      <source>The printer's paper is low: change the roll soon.</source>
      <translation>Queda poco papel en la impresora: cambie el rollo pronto.</translation>
    </message>
    <message>
      <source>The printer is out of paper: load a roll.</source>
      <translation>La impresora no tiene papel: ponga un rollo.</translation>
    </message>
    <message>
      <source>A refund</source>
      <translation>Una devolución</translation>
    </message>
    <message>
      <source>A void</source>
      <translation>Una anulación</translation>
    </message>
    <message>
      <source>Cancelling a ticket</source>
      <translation>Cancelar un ticket</translation>
    </message>
    <message>
      <source>A pay-in</source>
      <translation>Una entrada de efectivo</translation>
    </message>
    <message>
      <source>A pay-out</source>
      <translation>Una salida de efectivo</translation>
    </message>
    <message>
      <source>Closing the drawer</source>
      <translation>Cerrar el cajón</translation>
    </message>
    <message>
      <source>Closing the batch</source>
      <translation>Cerrar el lote</translation>
    </message>
    <message>
      <source>An over/short</source>
      <translation>Un sobrante/faltante</translation>
    </message>
    <message>
      <source>A discount</source>
      <translation>Un descuento</translation>
    </message>
    <message>
      <source>A price override</source>
      <translation>Un cambio de precio</translation>
    </message>
    <message>
      <source>A manual sale</source>
      <translation>Una venta manual</translation>
    </message>
    <message>
      <source>Other PIN checks kept the till busy: type the PIN again.</source>
      <translation>Otras comprobaciones de PIN tenían ocupada la caja: escriba el PIN de nuevo.</translation>
    </message>
    <message>
      <source>The store did not accept this manager number and PIN.</source>
      <translation>La tienda no aceptó este número de gerente y PIN.</translation>
    </message>
    <message>
      <source>The sandbox does not know this code.</source>
      <translation>El sandbox no conoce este código.</translation>
    </message>
    <message>
      <source>The printer does not answer.</source>
      <translation>La impresora no responde.</translation>
    </message>
    <message>
      <source>The printer failed (%s).</source>
      <translation>La impresora falló (%s).</translation>
    </message>
    <message>
      <source>Clerk %s is not a manager.</source>
      <translation>El cajero %s no es gerente.</translation>
    </message>
    <message>
      <source>Too many wrong PINs (%s): try again in %s s.</source>
      <translation>Demasiados PIN incorrectos (%s): intente de nuevo en %s s.</translation>
    </message>
    <message>
      <source>Store manager %s is locked for %s s after %s wrong PINs.</source>
      <translation>El gerente de tienda %s está bloqueado %s s tras %s PIN incorrectos.</translation>
    </message>
    <message>
      <source>The store service cannot be reached (%s, %s).</source>
      <translation>No se puede contactar el servicio de la tienda (%s, %s).</translation>
    </message>
    <message>
      <source>The store service or its database is away (%s).</source>
      <translation>El servicio de la tienda o su base de datos no está disponible (%s).</translation>
    </message>
    <message>
      <source>The store service gave an answer the till cannot read (%s).</source>
      <translation>El servicio de la tienda dio una respuesta que la caja no puede leer (%s).</translation>
    </message>
    <message>
      <source>The code is %s: it can no longer be paid.</source>
      <translation>El código está %s: ya no se puede pagar.</translation>
    </message>
    <message>
      <source>The printer does not answer (%s).</source>
      <translation>La impresora no responde (%s).</translation>
    </message>
    <message>
      <source>The customer is typing the address on the PIN pad…</source>
      <translation>El cliente está escribiendo la dirección en el PIN pad…</translation>
    </message>
    <message>
      <source>E-mail the receipt</source>
      <translation>Enviar el recibo por correo</translation>
    </message>
    <message>
      <source>The customer types the address on the PIN pad, or you type it here.</source>
      <translation>El cliente escribe la dirección en el PIN pad, o usted la escribe aquí.</translation>
    </message>
    <message>
      <source>Ask on the PIN pad</source>
      <translation>Pedirla en el PIN pad</translation>
    </message>
    <message>
      <source>Send</source>
      <translation>Enviar</translation>
    </message>
    <message>
      <source>The customer's e-mail address</source>
      <translation>La dirección de correo del cliente</translation>
    </message>
    <message>
      <source>Cancel</source>
      <translation>Cancelar</translation>
    </message>
    <message>
      <source>This till sends no e-mail: its profile has no [email] host.</source>
      <translation>Esta caja no envía correos: su perfil no tiene host en [email].</translation>
    </message>
    <message>
      <source>The customer cancelled on the PIN pad: type the address here, or ask again.</source>
      <translation>El cliente canceló en el PIN pad: escriba la dirección aquí, o pídala de nuevo.</translation>
    </message>
    <message>
      <source>Receipt {receipt} queued for e-mail.</source>
      <translation>Recibo {receipt} en cola para enviarse por correo.</translation>
    </message>
    <message>
      <source>Something went wrong</source>
      <translation>Algo salió mal</translation>
    </message>
    <message>
      <source>The till hit an unexpected error. Nothing was charged twice; check the journal before retrying a payment.</source>
      <translation>La caja tuvo un error inesperado. Nada se cobró dos veces; revise el diario antes de reintentar un pago.</translation>
    </message>
    <message>
      <source>Mail (training)</source>
      <translation>Correo (práctica)</translation>
    </message>
    <message>
      <source>Each e-mailed receipt as the customer would receive it.</source>
      <translation>Cada recibo enviado por correo, tal como lo recibiría el cliente.</translation>
    </message>
    <message>
      <source>E-mailed receipts</source>
      <translation>Recibos enviados por correo</translation>
    </message>
    <message>
      <source>From</source>
      <translation>De</translation>
    </message>
    <message>
      <source>To</source>
      <translation>Para</translation>
    </message>
    <message>
      <source>Subject</source>
      <translation>Asunto</translation>
    </message>
    <message>
      <source>Attached</source>
      <translation>Adjunto</translation>
    </message>
    <message>
      <source>Manager approval</source>
      <translation>Autorización del gerente</translation>
    </message>
    <message>
      <source>Manager PIN:</source>
      <translation>PIN del gerente:</translation>
    </message>
    <message>
      <source>Not done: a manager's PIN is needed.</source>
      <translation>No se hizo: hace falta el PIN de un gerente.</translation>
    </message>
    <message>
      <source>Asking the host…</source>
      <translation>Preguntando al host…</translation>
    </message>
    <message>
      <source>Still no answer from the host; recovery keeps trying.</source>
      <translation>El host sigue sin responder; la recuperación continúa.</translation>
    </message>
    <message>
      <source>Receipt printed on the PIN pad.</source>
      <translation>Recibo impreso en la terminal.</translation>
    </message>
    <message>
      <source>Could not print:</source>
      <translation>No se pudo imprimir:</translation>
    </message>
    <message>
      <source>Catalog</source>
      <translation>Catálogo</translation>
    </message>
    <message>
      <source>Search by name or sku</source>
      <translation>Buscar por nombre o SKU</translation>
    </message>
    <message>
      <source>Search the catalog</source>
      <translation>Buscar en el catálogo</translation>
    </message>
    <message>
      <source>Products</source>
      <translation>Productos</translation>
    </message>
    <message>
      <source>One row per product: sku, name, price, category and whether it is sold.</source>
      <translation>Una fila por producto: SKU, nombre, precio, categoría y si se vende.</translation>
    </message>
    <message>
      <source>Name</source>
      <translation>Nombre</translation>
    </message>
    <message>
      <source>Price</source>
      <translation>Precio</translation>
    </message>
    <message>
      <source>Category</source>
      <translation>Categoría</translation>
    </message>
    <message>
      <source>Sold at the counter</source>
      <translation>Se vende en el mostrador</translation>
    </message>
    <message>
      <source>New product</source>
      <translation>Producto nuevo</translation>
    </message>
    <message>
      <source>New product's category</source>
      <translation>Categoría del producto nuevo</translation>
    </message>
    <message>
      <source>New product's tax class</source>
      <translation>Clase de impuesto del producto nuevo</translation>
    </message>
    <message>
      <source>Save product</source>
      <translation>Guardar producto</translation>
    </message>
    <message>
      <source>Add product</source>
      <translation>Añadir producto</translation>
    </message>
    <message>
      <source>SKU</source>
      <translation>SKU</translation>
    </message>
    <message>
      <source>Sold</source>
      <translation>Se vende</translation>
    </message>
    <message>
      <source>New product's sku</source>
      <translation>SKU del producto nuevo</translation>
    </message>
    <message>
      <source>New product's name</source>
      <translation>Nombre del producto nuevo</translation>
    </message>
    <message>
      <source>New product's price</source>
      <translation>Precio del producto nuevo</translation>
    </message>
    <message>
      <source>Barcodes, separated by |</source>
      <translation>Códigos de barras, separados por |</translation>
    </message>
    <message>
      <source>Sending to the store…</source>
      <translation>Enviando a la tienda…</translation>
    </message>
    <message>
      <source>This till sells its own list (no store): the catalog is changed at the store.</source>
      <translation>Esta caja vende su propia lista (sin tienda): el catálogo se cambia en la tienda.</translation>
    </message>
    <message>
      <source>Sign in to the store first (Store: manager number and PIN): the store checks who changes its catalog.</source>
      <translation>Inicie sesión en la tienda primero (Tienda: número y PIN del encargado): la tienda comprueba quién cambia su catálogo.</translation>
    </message>
    <message>
      <source>Choose a product in the list first.</source>
      <translation>Elija primero un producto de la lista.</translation>
    </message>
    <message>
      <source>Catalog version %s from the store.</source>
      <translation>Versión %s del catálogo de la tienda.</translation>
    </message>
    <message>
      <source>yes</source>
      <translation>sí</translation>
    </message>
    <message>
      <source>no</source>
      <translation>no</translation>
    </message>
    <message>
      <source>%s saved: catalog version %s.</source>
      <translation>%s guardado: versión %s del catálogo.</translation>
    </message>
    <message>
      <source>Drawer</source>
      <translation>Cajón</translation>
    </message>
    <message>
      <source>Open the drawer</source>
      <translation>Abrir el cajón</translation>
    </message>
    <message>
      <source>Cash in and out</source>
      <translation>Entradas y salidas</translation>
    </message>
    <message>
      <source>Close the drawer (blind count)</source>
      <translation>Cierre (arqueo ciego)</translation>
    </message>
    <message>
      <source>Count the drawer bill by bill: the pieces of each note and coin add up to the counted cash.</source>
      <translation>Contar la caja billete a billete: las piezas de cada billete y moneda suman el efectivo contado.</translation>
    </message>
    <message>
      <source>Over/short reason</source>
      <translation>Motivo del sobrante/faltante</translation>
    </message>
    <message>
      <source>No drawer is open. Count the float and open the drawer.</source>
      <translation>No hay cajón abierto. Cuente el fondo y abra el cajón.</translation>
    </message>
    <message>
      <source>Open drawer</source>
      <translation>Abrir cajón</translation>
    </message>
    <message>
      <source>Cash amount</source>
      <translation>Importe en efectivo</translation>
    </message>
    <message>
      <source>Pay in</source>
      <translation>Entrada</translation>
    </message>
    <message>
      <source>Pay out</source>
      <translation>Salida</translation>
    </message>
    <message>
      <source>No sale</source>
      <translation>Sin venta</translation>
    </message>
    <message>
      <source>Count</source>
      <translation>Contar</translation>
    </message>
    <message>
      <source>Close drawer</source>
      <translation>Cerrar cajón</translation>
    </message>
    <message>
      <source>Count by note</source>
      <translation>Contar por billete</translation>
    </message>
    <message>
      <source>The drawer is not available: the journal could not be opened.</source>
      <translation>El cajón no está disponible: no se pudo abrir el diario.</translation>
    </message>
    <message>
      <source>no sales</source>
      <translation>aperturas sin venta</translation>
    </message>
    <message>
      <source>counted, waiting for a manager</source>
      <translation>contado, esperando al gerente</translation>
    </message>
    <message>
      <source>Done: the drawer opened and the move is in the journal.</source>
      <translation>Hecho: el cajón se abrió y el movimiento está en el diario.</translation>
    </message>
    <message>
      <source>over</source>
      <translation>sobrante</translation>
    </message>
    <message>
      <source>short</source>
      <translation>faltante</translation>
    </message>
    <message>
      <source>balanced</source>
      <translation>cuadrado</translation>
    </message>
    <message>
      <source>counted</source>
      <translation>contado</translation>
    </message>
    <message>
      <source>Count recorded.</source>
      <translation>Arqueo registrado.</translation>
    </message>
    <message>
      <source>Count the drawer first.</source>
      <translation>Primero cuente el cajón.</translation>
    </message>
    <message>
      <source>The Z report is on the Reports screen.</source>
      <translation>El informe Z está en la pantalla Informes.</translation>
    </message>
    <message>
      <source>Paid in</source>
      <translation>Entrada registrada</translation>
    </message>
    <message>
      <source>Paid out</source>
      <translation>Salida registrada</translation>
    </message>
    <message>
      <source>Drawer opened (no sale)</source>
      <translation>Cajón abierto (sin venta)</translation>
    </message>
    <message>
      <source>Open the drawer with its key.</source>
      <translation>Abra el cajón con su llave.</translation>
    </message>
    <message>
      <source>Expected</source>
      <translation>Esperado</translation>
    </message>
    <message>
      <source>Say why the drawer is over or short.</source>
      <translation>Indique por qué sobra o falta dinero en el cajón.</translation>
    </message>
    <message>
      <source>cash tickets</source>
      <translation>tickets en efectivo</translation>
    </message>
    <message>
      <source>Drawer open with a float of</source>
      <translation>Cajón abierto con un fondo de</translation>
    </message>
    <message>
      <source>The drawer opened: put the float in.</source>
      <translation>El cajón se abrió: ponga el fondo.</translation>
    </message>
    <message>
      <source>Over/short</source>
      <translation>Sobrante/faltante</translation>
    </message>
    <message>
      <source>Drawer closed.</source>
      <translation>Cajón cerrado.</translation>
    </message>
    <message>
      <source>float</source>
      <translation>fondo</translation>
    </message>
    <message>
      <source>Drawer open since</source>
      <translation>Cajón abierto desde</translation>
    </message>
    <message>
      <source>The move is in the journal.</source>
      <translation>El movimiento está en el diario.</translation>
    </message>
    <message>
      <source>Gift card</source>
      <translation>Tarjeta de regalo</translation>
    </message>
    <message>
      <source>Balance</source>
      <translation>Saldo</translation>
    </message>
    <message>
      <source>Activate</source>
      <translation>Activar</translation>
    </message>
    <message>
      <source>Reload</source>
      <translation>Recargar</translation>
    </message>
    <message>
      <source>Deactivate</source>
      <translation>Desactivar</translation>
    </message>
    <message>
      <source>Reactivate</source>
      <translation>Reactivar</translation>
    </message>
    <message>
      <source>Cash out</source>
      <translation>Retirar saldo</translation>
    </message>
    <message>
      <source>Sale</source>
      <translation>Venta</translation>
    </message>
    <message>
      <source>Spent</source>
      <translation>Gastado</translation>
    </message>
    <message>
      <source>Cancelled</source>
      <translation>Cancelado</translation>
    </message>
    <message>
      <source>Gift card number: type or scan, then Enter (empty: the PIN pad reads it)</source>
      <translation>Número de tarjeta de regalo: teclee o escanee y pulse Intro (vacío: la terminal la lee)</translation>
    </message>
    <message>
      <source>Amount (activate, reload)</source>
      <translation>Importe (activar, recargar)</translation>
    </message>
    <message>
      <source>Gift card history</source>
      <translation>Historial de la tarjeta de regalo</translation>
    </message>
    <message>
      <source>One row per movement on the card: when, what and how much.</source>
      <translation>Una fila por movimiento de la tarjeta: cuándo, qué y cuánto.</translation>
    </message>
    <message>
      <source>Cancel last request</source>
      <translation>Cancelar la última operación</translation>
    </message>
    <message>
      <source>Cancelling on the PIN pad…</source>
      <translation>Cancelando en la terminal…</translation>
    </message>
    <message>
      <source>Working…</source>
      <translation>Procesando…</translation>
    </message>
    <message>
      <source>Not done</source>
      <translation>No realizado</translation>
    </message>
    <message>
      <source>Cancel on the PIN pad</source>
      <translation>Cancelar en la terminal</translation>
    </message>
    <message>
      <source>Present card</source>
      <translation>Presente la tarjeta</translation>
    </message>
    <message>
      <source>Card:</source>
      <translation>Tarjeta:</translation>
    </message>
    <message>
      <source>read on the PIN pad</source>
      <translation>se lee en la terminal</translation>
    </message>
    <message>
      <source>active</source>
      <translation>activa</translation>
    </message>
    <message>
      <source>deactivated</source>
      <translation>desactivada</translation>
    </message>
    <message>
      <source>not activated</source>
      <translation>sin activar</translation>
    </message>
    <message>
      <source>No gift card request to cancel in this session.</source>
      <translation>No hay operación de tarjeta de regalo que cancelar en esta sesión.</translation>
    </message>
    <message>
      <source>Customer sees:</source>
      <translation>El cliente ve:</translation>
    </message>
    <message>
      <source>Could not cancel:</source>
      <translation>No se pudo cancelar:</translation>
    </message>
    <message>
      <source>Not sent</source>
      <translation>No enviado</translation>
    </message>
    <message>
      <source>Cancel %s of invoice %s (%s)? It cannot be undone. Press %s again to confirm.</source>
      <translation>¿Anular %s de la factura %s (%s)? No se puede deshacer. Pulse %s otra vez para confirmar.</translation>
    </message>
    <message>
      <source>Journal</source>
      <translation>Diario</translation>
    </message>
    <message>
      <source>Refund amount</source>
      <translation>Importe a devolver</translation>
    </message>
    <message>
      <source>Card last four</source>
      <translation>Últimos cuatro de la tarjeta</translation>
    </message>
    <message>
      <source>Since time (HH:MM)</source>
      <translation>Desde la hora (HH:MM)</translation>
    </message>
    <message>
      <source>What to look for</source>
      <translation>Qué buscar</translation>
    </message>
    <message>
      <source>Today only</source>
      <translation>Solo hoy</translation>
    </message>
    <message>
      <source>Search by</source>
      <translation>Buscar por</translation>
    </message>
    <message>
      <source>Search</source>
      <translation>Buscar</translation>
    </message>
    <message>
      <source>What to look for; Up and Down move through the entries found.</source>
      <translation>Qué buscar; Arriba y Abajo recorren los registros encontrados.</translation>
    </message>
    <message>
      <source>Journal entries</source>
      <translation>Registros del diario</translation>
    </message>
    <message>
      <source>One row per payment: time, invoice, kind, card, amount, state and notes.</source>
      <translation>Una fila por pago: hora, factura, tipo, tarjeta, importe, estado y notas.</translation>
    </message>
    <message>
      <source>Entry details</source>
      <translation>Detalles del registro</translation>
    </message>
    <message>
      <source>Show all</source>
      <translation>Mostrar todo</translation>
    </message>
    <message>
      <source>Refund</source>
      <translation>Devolución</translation>
    </message>
    <message>
      <source>Void</source>
      <translation>Anular</translation>
    </message>
    <message>
      <source>Refresh</source>
      <translation>Actualizar</translation>
    </message>
    <message>
      <source>Details</source>
      <translation>Detalles</translation>
    </message>
    <message>
      <source>Reprint</source>
      <translation>Reimprimir</translation>
    </message>
    <message>
      <source>E-mail receipt</source>
      <translation>Recibo por correo</translation>
    </message>
    <message>
      <source>Refund ticket lines</source>
      <translation>Devolver líneas del ticket</translation>
    </message>
    <message>
      <source>Time</source>
      <translation>Hora</translation>
    </message>
    <message>
      <source>Kind</source>
      <translation>Tipo</translation>
    </message>
    <message>
      <source>State</source>
      <translation>Estado</translation>
    </message>
    <message>
      <source>Notes</source>
      <translation>Notas</translation>
    </message>
    <message>
      <source>Not sent: nothing was given back.</source>
      <translation>No enviado: no se devolvió nada.</translation>
    </message>
    <message>
      <source>TRAINING</source>
      <translation>ENTRENAMIENTO</translation>
    </message>
    <message>
      <source>partial approval</source>
      <translation>aprobación parcial</translation>
    </message>
    <message>
      <source>The receipt is in the journal; try again when the PIN pad is free.</source>
      <translation>El recibo está en el diario; inténtelo de nuevo cuando la terminal esté libre.</translation>
    </message>
    <message>
      <source>Phone/link refund</source>
      <translation>Devolución por teléfono/enlace</translation>
    </message>
    <message>
      <source>Refunding…</source>
      <translation>Devolviendo…</translation>
    </message>
    <message>
      <source>Voiding…</source>
      <translation>Anulando…</translation>
    </message>
    <message>
      <source>Printing the receipt…</source>
      <translation>Imprimiendo el recibo…</translation>
    </message>
    <message>
      <source>refunded</source>
      <translation>devuelto</translation>
    </message>
    <message>
      <source>tip</source>
      <translation>propina</translation>
    </message>
    <message>
      <source>for invoice</source>
      <translation>de la factura</translation>
    </message>
    <message>
      <source>Host text</source>
      <translation>Texto del host</translation>
    </message>
    <message>
      <source>Requested</source>
      <translation>Solicitado</translation>
    </message>
    <message>
      <source>Approved</source>
      <translation>Aprobado</translation>
    </message>
    <message>
      <source>Refunded</source>
      <translation>Devuelto</translation>
    </message>
    <message>
      <source>Approval code</source>
      <translation>Código de aprobación</translation>
    </message>
    <message>
      <source>Response code</source>
      <translation>Código de respuesta</translation>
    </message>
    <message>
      <source>Host code</source>
      <translation>Código del host</translation>
    </message>
    <message>
      <source>Refund %s of invoice %s to the card%s? Press F6 again to confirm.</source>
      <translation>¿Devolver %s de la factura %s a la tarjeta%s? Pulse F6 otra vez para confirmar.</translation>
    </message>
    <message>
      <source>Void invoice %s (%s)? Press %s again to confirm.</source>
      <translation>¿Anular la factura %s (%s)? Pulse %s otra vez para confirmar.</translation>
    </message>
    <message>
      <source>Nothing found: no entry matches this search.</source>
      <translation>Nada encontrado: ningún registro coincide con esta búsqueda.</translation>
    </message>
    <message>
      <source>No entries yet.</source>
      <translation>Todavía no hay registros.</translation>
    </message>
    <message>
      <source>Receipt printed.</source>
      <translation>Recibo impreso.</translation>
    </message>
    <message>
      <source>Ticket %s: %s refunded.</source>
      <translation>Ticket %s: %s devuelto.</translation>
    </message>
    <message>
      <source>Ticket %s: %s of %s refunded; the rest was not.</source>
      <translation>Ticket %s: %s de %s devuelto; el resto no.</translation>
    </message>
    <message>
      <source>Give back all of charge %s (%s)? Press %s again to confirm.</source>
      <translation>¿Devolver todo el cargo %s (%s)? Pulse %s otra vez para confirmar.</translation>
    </message>
    <message>
      <source>The receipt is in the journal; print it again later.</source>
      <translation>El recibo está en el diario; imprímalo de nuevo más tarde.</translation>
    </message>
    <message>
      <source>The payment host gives this till no batch totals: the figures above are the till's own record of the open batch, not checked against the host.</source>
      <translation>El host de pagos no da totales de lote a esta caja: las cifras de arriba son el registro propio de la caja del lote abierto, sin comprobar con el host.</translation>
    </message>
    <message>
      <source>the host has sales: {sales} ({sales_amount}), refunds: {refunds} ({refunds_amount})</source>
      <translation>el host tiene ventas: {sales} ({sales_amount}), devoluciones: {refunds} ({refunds_amount})</translation>
    </message>
    <message>
      <source>Compared the till's sales and refunds in the open batch with the payment host's totals: they DIFFER ({host}). Run recovery, then compare again before closing.</source>
      <translation>Se compararon las ventas y devoluciones del lote abierto de la caja con los totales del host de pagos: NO COINCIDEN ({host}). Ejecute la recuperación y compare de nuevo antes de cerrar.</translation>
    </message>
    <message>
      <source>No manager PIN is set for this till: ask support to set one in its profile.</source>
      <translation>Esta caja no tiene PIN de gerente: pida a soporte que lo configure en su perfil.</translation>
    </message>
    <message>
      <source>Manager PIN</source>
      <translation>PIN del gerente</translation>
    </message>
    <message>
      <source>Batch</source>
      <translation>Lote</translation>
    </message>
    <message>
      <source>Unresolved payments</source>
      <translation>Pagos sin resolver</translation>
    </message>
    <message>
      <source>Mode and PIN pad</source>
      <translation>Modo y terminal</translation>
    </message>
    <message>
      <source>Till settings</source>
      <translation>Configuración de la caja</translation>
    </message>
    <message>
      <source>One row per payment the host has not settled yet.</source>
      <translation>Una fila por cada pago que el host aún no ha resuelto.</translation>
    </message>
    <message>
      <source>PIN pad status</source>
      <translation>Estado de la terminal</translation>
    </message>
    <message>
      <source>Stored payments</source>
      <translation>Pagos guardados</translation>
    </message>
    <message>
      <source>One row per card payment stored offline, with the hours left before its limit, then each one the host declined when it was sent on, with what to do.</source>
      <translation>Una fila por pago con tarjeta guardado sin conexión, con las horas que le quedan antes de su límite; después, cada uno que el host rechazó al reenviarlo, con qué hacer.</translation>
    </message>
    <message>
      <source>Store</source>
      <translation>Tienda</translation>
    </message>
    <message>
      <source>Store manager number</source>
      <translation>Número del gerente de tienda</translation>
    </message>
    <message>
      <source>Store manager PIN</source>
      <translation>PIN del gerente de tienda</translation>
    </message>
    <message>
      <source>Every till's figures</source>
      <translation>Las cifras de cada caja</translation>
    </message>
    <message>
      <source>One row per till: clerk, last seen, open tickets, unresolved, sales, refunds and net.</source>
      <translation>Una fila por caja: cajero, visto por última vez, tickets abiertos, sin resolver, ventas, devoluciones y neto.</translation>
    </message>
    <message>
      <source>Compared the till's sales and refunds in the open batch with the payment host's totals: they match ({host}).</source>
      <translation>Se compararon las ventas y devoluciones del lote abierto de la caja con los totales del host de pagos: coinciden ({host}).</translation>
    </message>
    <message>
      <source>Unlock</source>
      <translation>Desbloquear</translation>
    </message>
    <message>
      <source>Reconcile</source>
      <translation>Conciliar</translation>
    </message>
    <message>
      <source>Close batch</source>
      <translation>Cerrar lote</translation>
    </message>
    <message>
      <source>Close anyway</source>
      <translation>Cerrar de todos modos</translation>
    </message>
    <message>
      <source>Run recovery</source>
      <translation>Ejecutar recuperación</translation>
    </message>
    <message>
      <source>Void selected</source>
      <translation>Anular seleccionado</translation>
    </message>
    <message>
      <source>Go offline</source>
      <translation>Pasar a fuera de línea</translation>
    </message>
    <message>
      <source>Go online</source>
      <translation>Volver a en línea</translation>
    </message>
    <message>
      <source>Lock</source>
      <translation>Bloquear</translation>
    </message>
    <message>
      <source>Training till: the manager PIN is 1234.</source>
      <translation>Caja de entrenamiento: el PIN del gerente es 1234.</translation>
    </message>
    <message>
      <source>Since</source>
      <translation>Desde</translation>
    </message>
    <message>
      <source>Left / to do</source>
      <translation>Queda / qué hacer</translation>
    </message>
    <message>
      <source>Till</source>
      <translation>Caja</translation>
    </message>
    <message>
      <source>Host</source>
      <translation>Host</translation>
    </message>
    <message>
      <source>PIN pad</source>
      <translation>Terminal</translation>
    </message>
    <message>
      <source>Currency</source>
      <translation>Moneda</translation>
    </message>
    <message>
      <source>Language</source>
      <translation>Idioma</translation>
    </message>
    <message>
      <source>No payment stored offline.</source>
      <translation>Ningún pago guardado sin conexión.</translation>
    </message>
    <message>
      <source>Waiting</source>
      <translation>En espera</translation>
    </message>
    <message>
      <source>Declined when sent on</source>
      <translation>Rechazado al reenviarlo</translation>
    </message>
    <message>
      <source>Reach the customer and collect it</source>
      <translation>Contacte al cliente y cóbrelo</translation>
    </message>
    <message>
      <source>Nothing is waiting for recovery.</source>
      <translation>Nada espera recuperación.</translation>
    </message>
    <message>
      <source>Comparing the till's payments with the payment host…</source>
      <translation>Comparando los pagos de la caja con el host de pagos…</translation>
    </message>
    <message>
      <source>Totals appear after the first reconciliation.</source>
      <translation>Los totales aparecen tras la primera conciliación.</translation>
    </message>
    <message>
      <source>Closing the batch…</source>
      <translation>Cerrando el lote…</translation>
    </message>
    <message>
      <source>Asking the host about every open payment…</source>
      <translation>Consultando al host cada pago abierto…</translation>
    </message>
    <message>
      <source>Sign in to the store</source>
      <translation>Iniciar sesión en la tienda</translation>
    </message>
    <message>
      <source>Close store batch</source>
      <translation>Cerrar lote de la tienda</translation>
    </message>
    <message>
      <source>Close store anyway</source>
      <translation>Cerrar la tienda de todos modos</translation>
    </message>
    <message>
      <source>Last seen</source>
      <translation>Visto por última vez</translation>
    </message>
    <message>
      <source>Open tickets</source>
      <translation>Tickets abiertos</translation>
    </message>
    <message>
      <source>Unresolved</source>
      <translation>Sin resolver</translation>
    </message>
    <message>
      <source>Sales</source>
      <translation>Ventas</translation>
    </message>
    <message>
      <source>Refunds</source>
      <translation>Devoluciones</translation>
    </message>
    <message>
      <source>Net</source>
      <translation>Neto</translation>
    </message>
    <message>
      <source>Training till: it shows the store but never closes its batch.</source>
      <translation>Caja de entrenamiento: muestra la tienda pero nunca cierra su lote.</translation>
    </message>
    <message>
      <source>This till only. A store manager signs in to see every till and to close the store's batch.</source>
      <translation>Solo esta caja. Un gerente de tienda inicia sesión para ver todas las cajas y cerrar el lote de la tienda.</translation>
    </message>
    <message>
      <source>Closing the store's batch…</source>
      <translation>Cerrando el lote de la tienda…</translation>
    </message>
    <message>
      <source>Manager PIN: not accepted.</source>
      <translation>PIN del gerente: no aceptado.</translation>
    </message>
    <message>
      <source>embedded sandbox (training)</source>
      <translation>simulador integrado (entrenamiento)</translation>
    </message>
    <message>
      <source>receipt</source>
      <translation>recibo</translation>
    </message>
    <message>
      <source>E-mailed receipts not sent</source>
      <translation>Recibos por correo no enviados</translation>
    </message>
    <message>
      <source>none</source>
      <translation>ninguno</translation>
    </message>
    <message>
      <source>Failed manager PINs</source>
      <translation>PIN de gerente fallidos</translation>
    </message>
    <message>
      <source>Offline by itself: the host could not be reached; back online by itself when it answers.</source>
      <translation>Sin conexión por sí sola: no se pudo llegar al host; vuelve a estar en línea sola cuando responda.</translation>
    </message>
    <message>
      <source>Offline: a manager's switch.</source>
      <translation>Sin conexión: decisión de un gerente.</translation>
    </message>
    <message>
      <source>Recovery resolved %s; still open %s.</source>
      <translation>La recuperación resolvió %s; siguen abiertos %s.</translation>
    </message>
    <message>
      <source>Choose a payment to void.</source>
      <translation>Elija un pago para anular.</translation>
    </message>
    <message>
      <source>This till is not linked to a store service.</source>
      <translation>Esta caja no está conectada a un servicio de tienda.</translation>
    </message>
    <message>
      <source>Asking the store…</source>
      <translation>Consultando a la tienda…</translation>
    </message>
    <message>
      <source>Tips</source>
      <translation>Propinas</translation>
    </message>
    <message>
      <source>By tender</source>
      <translation>Por forma de pago</translation>
    </message>
    <message>
      <source>By card brand</source>
      <translation>Por marca de tarjeta</translation>
    </message>
    <message>
      <source>Last store batch: %s</source>
      <translation>Último lote de la tienda: %s</translation>
    </message>
    <message>
      <source>Updated %s</source>
      <translation>Actualizado %s</translation>
    </message>
    <message>
      <source>A store manager signs in first: the store checks the PIN.</source>
      <translation>Primero inicia sesión un gerente de tienda: la tienda comprueba el PIN.</translation>
    </message>
    <message>
      <source>clerk</source>
      <translation>cajero</translation>
    </message>
    <message>
      <source>locked</source>
      <translation>bloqueado</translation>
    </message>
    <message>
      <source>Stored, waiting for the host: {count} for {amount}; the oldest at {oldest}, {left} h before the limit of {limit} h.</source>
      <translation>Guardados, esperando al host: {count} por {amount}; el más antiguo a las {oldest}, {left} h antes del límite de {limit} h.</translation>
    </message>
    <message>
      <source>Declined when sent on: invoice {invoice}, ticket {ticket}, {amount} on card ..{last4} at {at}. Reach the customer and collect it.</source>
      <translation>Rechazado al reenviarlo: factura {invoice}, ticket {ticket}, {amount} en la tarjeta ..{last4} a las {at}. Contacte al cliente y cóbrelo.</translation>
    </message>
    <message>
      <source>{left} h left</source>
      <translation>quedan {left} h</translation>
    </message>
    <message>
      <source>Corrections (the host held them otherwise)</source>
      <translation>Correcciones (el host las tenía de otro modo)</translation>
    </message>
    <message>
      <source>Open tabs (not in the batch)</source>
      <translation>Cuentas abiertas (fuera del lote)</translation>
    </message>
    <message>
      <source>Close the batch? Sales: %s (%s); refunds: %s (%s); net %s. It cannot be undone. Press Alt+B again to confirm.</source>
      <translation>¿Cerrar el lote? Ventas: %s (%s); devoluciones: %s (%s); neto %s. No se puede deshacer. Pulse Alt+B de nuevo para confirmar.</translation>
    </message>
    <message>
      <source>Offline mode is on.</source>
      <translation>Modo fuera de línea activado.</translation>
    </message>
    <message>
      <source>Back online.</source>
      <translation>De nuevo en línea.</translation>
    </message>
    <message>
      <source>Store manager %s signed in: every till's figures.</source>
      <translation>Gerente de tienda %s con sesión iniciada: las cifras de todas las cajas.</translation>
    </message>
    <message>
      <source>never</source>
      <translation>nunca</translation>
    </message>
    <message>
      <source>Store batch %s closed: one batch for every till.</source>
      <translation>Lote de la tienda %s cerrado: un lote para todas las cajas.</translation>
    </message>
    <message>
      <source>Corrected %s to what the host holds.</source>
      <translation>Corregidos %s según lo que tiene el host.</translation>
    </message>
    <message>
      <source>%s in flight in another program, left to it.</source>
      <translation>%s en curso en otro programa, se le dejan.</translation>
    </message>
    <message>
      <source>Corrected: invoice {invoice} was {was}, the host holds it {now} (found by {who}).</source>
      <translation>Corregido: la factura {invoice} estaba {was}, el host la tiene {now} (lo encontró {who}).</translation>
    </message>
    <message>
      <source>Not this customer's: the host answered invoice {invoice} with an approval of {total} on card ..{last4}, another payment under that number; settle it with the host.</source>
      <translation>No es de este cliente: el host respondió a la factura {invoice} con una aprobación de {total} en la tarjeta ..{last4}, otro pago con ese número; resuélvalo con el host.</translation>
    </message>
    <message>
      <source>Reconciled at %s.</source>
      <translation>Conciliado a las %s.</translation>
    </message>
    <message>
      <source>Open tabs not in this batch: %s (%s): capture or void them on Open tabs, or press Alt+B again to carry them over to the next batch.</source>
      <translation>Cuentas abiertas fuera de este lote: %s (%s): cóbrelas o anúlelas en Cuentas abiertas, o pulse Alt+B de nuevo para pasarlas al lote siguiente.</translation>
    </message>
    <message>
      <source>Batch %s closed.</source>
      <translation>Lote %s cerrado.</translation>
    </message>
    <message>
      <source>approved</source>
      <translation>aprobado</translation>
    </message>
    <message>
      <source>declined</source>
      <translation>rechazado</translation>
    </message>
    <message>
      <source>declined: not enough funds on the card</source>
      <translation>rechazada: fondos insuficientes en la tarjeta</translation>
    </message>
    <message>
      <source>Phone/link</source>
      <translation>Tel./enlace</translation>
    </message>
    <message>
      <source>Phone order</source>
      <translation>Pedido por teléfono</translation>
    </message>
    <message>
      <source>Pay by link</source>
      <translation>Pago por enlace</translation>
    </message>
    <message>
      <source>Customer</source>
      <translation>Cliente</translation>
    </message>
    <message>
      <source>Card number</source>
      <translation>Número de tarjeta</translation>
    </message>
    <message>
      <source>Expiry (MM/YY)</source>
      <translation>Vencimiento (MM/AA)</translation>
    </message>
    <message>
      <source>Security code</source>
      <translation>Código de seguridad</translation>
    </message>
    <message>
      <source>Postal code</source>
      <translation>Código postal</translation>
    </message>
    <message>
      <source>Authorize only (capture later)</source>
      <translation>Solo autorizar (capturar después)</translation>
    </message>
    <message>
      <source>Read the card over the phone. It is used once to make a token and cleared from the screen; it is never stored.</source>
      <translation>Tome la tarjeta por teléfono. Se usa una vez para crear un token y se borra de la pantalla; nunca se guarda.</translation>
    </message>
    <message>
      <source>Customer e-mail or id (cust_…)</source>
      <translation>Correo o id del cliente (cust_…)</translation>
    </message>
    <message>
      <source>Card token (tok_…)</source>
      <translation>Token de tarjeta (tok_…)</translation>
    </message>
    <message>
      <source>Phone order, pay by link or customer</source>
      <translation>Pedido por teléfono, pago por enlace o cliente</translation>
    </message>
    <message>
      <source>Find a customer</source>
      <translation>Buscar un cliente</translation>
    </message>
    <message>
      <source>Card token</source>
      <translation>Token de tarjeta</translation>
    </message>
    <message>
      <source>Customers found</source>
      <translation>Clientes encontrados</translation>
    </message>
    <message>
      <source>Charges on the link</source>
      <translation>Cargos del enlace</translation>
    </message>
    <message>
      <source>Payment link QR code</source>
      <translation>Código QR del enlace de pago</translation>
    </message>
    <message>
      <source>The customer scans it with their phone to open the payment link.</source>
      <translation>El cliente lo escanea con su teléfono para abrir el enlace de pago.</translation>
    </message>
    <message>
      <source>Charge card</source>
      <translation>Cobrar tarjeta</translation>
    </message>
    <message>
      <source>Charging the card…</source>
      <translation>Cobrando la tarjeta…</translation>
    </message>
    <message>
      <source>Create payment link</source>
      <translation>Crear enlace de pago</translation>
    </message>
    <message>
      <source>Deactivate link</source>
      <translation>Desactivar enlace</translation>
    </message>
    <message>
      <source>Amount: type the amount first (it must be greater than zero).</source>
      <translation>Importe: teclee primero el importe (debe ser mayor que cero).</translation>
    </message>
    <message>
      <source>Creating the payment link…</source>
      <translation>Creando el enlace de pago…</translation>
    </message>
    <message>
      <source>Waiting for the customer to pay the link…</source>
      <translation>Esperando a que el cliente pague el enlace…</translation>
    </message>
    <message>
      <source>Send the address to the customer or let them scan the code.</source>
      <translation>Envíe la dirección al cliente o deje que escanee el código.</translation>
    </message>
    <message>
      <source>Waiting for the customer</source>
      <translation>Esperando al cliente</translation>
    </message>
    <message>
      <source>Training: the test customer is paying the link…</source>
      <translation>Práctica: el cliente de prueba está pagando el enlace…</translation>
    </message>
    <message>
      <source>Deactivating the link…</source>
      <translation>Desactivando el enlace…</translation>
    </message>
    <message>
      <source>Link deactivated</source>
      <translation>Enlace desactivado</translation>
    </message>
    <message>
      <source>Find</source>
      <translation>Buscar</translation>
    </message>
    <message>
      <source>New customer</source>
      <translation>Cliente nuevo</translation>
    </message>
    <message>
      <source>Add card from token</source>
      <translation>Agregar tarjeta desde token</translation>
    </message>
    <message>
      <source>Charge default card</source>
      <translation>Cobrar tarjeta predeterminada</translation>
    </message>
    <message>
      <source>Looking up the customer…</source>
      <translation>Buscando al cliente…</translation>
    </message>
    <message>
      <source>Charging the saved card…</source>
      <translation>Cobrando la tarjeta guardada…</translation>
    </message>
    <message>
      <source>The till is still starting; try again in a moment.</source>
      <translation>La caja aún está arrancando; inténtelo en un momento.</translation>
    </message>
    <message>
      <source>This till takes no phone or link payments: ask support to set them up.</source>
      <translation>Esta caja no acepta pagos por teléfono ni por enlace: pida a soporte que los configure.</translation>
    </message>
    <message>
      <source>Approved: paid by link</source>
      <translation>Aprobado: pagado por enlace</translation>
    </message>
    <message>
      <source>Link active</source>
      <translation>Enlace activo</translation>
    </message>
    <message>
      <source>Customers found:</source>
      <translation>Clientes encontrados:</translation>
    </message>
    <message>
      <source>Do not take the payment another way: recovery finds out what happened.</source>
      <translation>No cobre de otra forma: la recuperación averigua lo que pasó.</translation>
    </message>
    <message>
      <source>Customer pays the link (training)</source>
      <translation>El cliente paga el enlace (práctica)</translation>
    </message>
    <message>
      <source>Payment link for</source>
      <translation>Enlace de pago por</translation>
    </message>
    <message>
      <source>no saved card</source>
      <translation>sin tarjeta guardada</translation>
    </message>
    <message>
      <source>The payment service is not answering; still watching…</source>
      <translation>El servicio de pagos no responde; se sigue vigilando…</translation>
    </message>
    <message>
      <source>Training test cards:</source>
      <translation>Tarjetas de prueba (práctica):</translation>
    </message>
    <message>
      <source>Charge</source>
      <translation>Cargo</translation>
    </message>
    <message>
      <source>Link deactivated: not paid</source>
      <translation>Enlace desactivado: no pagado</translation>
    </message>
    <message>
      <source>The link may still be active: deactivate it again</source>
      <translation>El enlace puede seguir activo: desactívelo otra vez</translation>
    </message>
    <message>
      <source>The customer can no longer pay this link.</source>
      <translation>El cliente ya no puede pagar este enlace.</translation>
    </message>
    <message>
      <source>The payment service did not confirm the deactivation.</source>
      <translation>El servicio de pagos no confirmó la desactivación.</translation>
    </message>
    <message>
      <source>Declined</source>
      <translation>Rechazado</translation>
    </message>
    <message>
      <source>Not charged (error)</source>
      <translation>No cobrado (error)</translation>
    </message>
    <message>
      <source>Checking with the payment service…</source>
      <translation>Consultando con el servicio de pagos…</translation>
    </message>
    <message>
      <source>default card</source>
      <translation>tarjeta predeterminada</translation>
    </message>
    <message>
      <source>QR payment</source>
      <translation>Pago QR</translation>
    </message>
    <message>
      <source>a QR payment of %s</source>
      <translation>un pago QR de %s</translation>
    </message>
    <message>
      <source>Paid</source>
      <translation>Pagado</translation>
    </message>
    <message>
      <source>Cancelling the code…</source>
      <translation>Cancelando el código…</translation>
    </message>
    <message>
      <source>Reversed</source>
      <translation>Revertido</translation>
    </message>
    <message>
      <source>Checking with the host…</source>
      <translation>Consultando con el host…</translation>
    </message>
    <message>
      <source>The customer scans the code with their phone and pays there.</source>
      <translation>El cliente escanea el código con su teléfono y paga ahí.</translation>
    </message>
    <message>
      <source>The code is being cancelled at the host; it can no longer be paid once this ends.</source>
      <translation>El código se está cancelando en el host; al terminar ya no se podrá pagar.</translation>
    </message>
    <message>
      <source>The host's answer is not clear yet; do not take the payment another way.</source>
      <translation>La respuesta del host aún no es clara; no cobre de otra forma.</translation>
    </message>
    <message>
      <source>Approved: paid by QR code</source>
      <translation>Aprobado: pagado con código QR</translation>
    </message>
    <message>
      <source>Cancelled: not charged</source>
      <translation>Cancelado: no cobrado</translation>
    </message>
    <message>
      <source>Expired: not paid in time, not charged</source>
      <translation>Vencido: no se pagó a tiempo, sin cargo</translation>
    </message>
    <message>
      <source>Reversed: the payment was given back</source>
      <translation>Revertido: el pago se devolvió</translation>
    </message>
    <message>
      <source>Not charged</source>
      <translation>No cobrado</translation>
    </message>
    <message>
      <source>The code was cancelled at the host and can no longer be paid.</source>
      <translation>El código se canceló en el host y ya no se puede pagar.</translation>
    </message>
    <message>
      <source>The customer did not pay within the wait; the code was cancelled at the host.</source>
      <translation>El cliente no pagó dentro de la espera; el código se canceló en el host.</translation>
    </message>
    <message>
      <source>The customer's payment was reversed at the host.</source>
      <translation>El pago del cliente se revirtió en el host.</translation>
    </message>
    <message>
      <source>The host has not answered yet. Recovery keeps asking; the journal shows the outcome when it is known. Do not take the payment another way.</source>
      <translation>El host aún no responde. La recuperación sigue preguntando; el diario muestra el resultado cuando se conozca. No cobre de otra forma.</translation>
    </message>
    <message>
      <source>Type the amount (1 2 5 0 = 12.50), then Enter or F2: the customer scans the code with their phone.</source>
      <translation>Escriba el importe (1 2 5 0 = 12.50) y luego Enter o F2: el cliente escanea el código con su teléfono.</translation>
    </message>
    <message>
      <source>QR code</source>
      <translation>Código QR</translation>
    </message>
    <message>
      <source>The customer scans it with their phone to pay.</source>
      <translation>El cliente lo escanea con su teléfono para pagar.</translation>
    </message>
    <message>
      <source>Show QR code</source>
      <translation>Mostrar código QR</translation>
    </message>
    <message>
      <source>Customer pays (training)</source>
      <translation>El cliente paga (práctica)</translation>
    </message>
    <message>
      <source>Cancel payment</source>
      <translation>Cancelar pago</translation>
    </message>
    <message>
      <source>New sale</source>
      <translation>Nueva venta</translation>
    </message>
    <message>
      <source>Print receipt</source>
      <translation>Imprimir recibo</translation>
    </message>
    <message>
      <source>Cancel payment (give back)</source>
      <translation>Cancelar pago (devolver)</translation>
    </message>
    <message>
      <source>Check now</source>
      <translation>Consultar ahora</translation>
    </message>
    <message>
      <source>Asking the host for a QR code…</source>
      <translation>Pidiendo un código QR al host…</translation>
    </message>
    <message>
      <source>Training: the test customer's phone is paying…</source>
      <translation>Práctica: el teléfono del cliente de prueba está pagando…</translation>
    </message>
    <message>
      <source>Reversing at the host…</source>
      <translation>Revirtiendo en el host…</translation>
    </message>
    <message>
      <source>Training: the test customer paid; the till sees it at its next status check.</source>
      <translation>Práctica: el cliente de prueba pagó; la caja lo verá en su próxima consulta de estado.</translation>
    </message>
    <message>
      <source>Confirm: give back</source>
      <translation>Confirmar: devolver</translation>
    </message>
    <message>
      <source>Training tool: pays the code as a test customer's phone would.</source>
      <translation>Herramienta de práctica: paga el código como lo haría el teléfono de un cliente de prueba.</translation>
    </message>
    <message>
      <source>Training: the sandbox refused the payment:</source>
      <translation>Práctica: el simulador rechazó el pago:</translation>
    </message>
    <message>
      <source>Paid with</source>
      <translation>Pagado con</translation>
    </message>
    <message>
      <source>Give back the QR payment of %s, invoice %s? Press %s again to confirm.</source>
      <translation>¿Devolver el pago QR de %s, factura %s? Pulse %s otra vez para confirmar.</translation>
    </message>
    <message>
      <source>Could not reverse:</source>
      <translation>No se pudo revertir:</translation>
    </message>
    <message>
      <source>Reports</source>
      <translation>Informes</translation>
    </message>
    <message>
      <source>Reports are for a manager: type a manager PIN and press Enter.</source>
      <translation>Los informes son para el gerente: teclee un PIN de gerente y pulse Intro.</translation>
    </message>
    <message>
      <source>Report</source>
      <translation>Informe</translation>
    </message>
    <message>
      <source>The X or Z report as it prints, line by line.</source>
      <translation>El informe X o Z tal como se imprime, línea a línea.</translation>
    </message>
    <message>
      <source>Charts</source>
      <translation>Gráficos</translation>
    </message>
    <message>
      <source>The report's figures as charts; F4 shows each chart's table, F3 the report as it prints.</source>
      <translation>Las cifras del informe en gráficos; F4 muestra la tabla de cada gráfico, F3 el informe tal como se imprime.</translation>
    </message>
    <message>
      <source>Reports are not available: the journal could not be opened.</source>
      <translation>Los informes no están disponibles: no se pudo abrir el diario.</translation>
    </message>
    <message>
      <source>Save the report as</source>
      <translation>Guardar el informe como</translation>
    </message>
    <message>
      <source>X report</source>
      <translation>Informe X</translation>
    </message>
    <message>
      <source>Z report</source>
      <translation>Informe Z</translation>
    </message>
    <message>
      <source>Day</source>
      <translation>Día</translation>
    </message>
    <message>
      <source>Print</source>
      <translation>Imprimir</translation>
    </message>
    <message>
      <source>Export CSV</source>
      <translation>Exportar CSV</translation>
    </message>
    <message>
      <source>Export PDF</source>
      <translation>Exportar PDF</translation>
    </message>
    <message>
      <source>Text / charts</source>
      <translation>Texto / gráficos</translation>
    </message>
    <message>
      <source>Tables</source>
      <translation>Tablas</translation>
    </message>
    <message>
      <source>Sent to the receipt printer.</source>
      <translation>Enviado a la impresora de recibos.</translation>
    </message>
    <message>
      <source>Business date</source>
      <translation>Fecha del día</translation>
    </message>
    <message>
      <source>The day the Day key shows, beside the same weekday a week earlier.</source>
      <translation>El día que muestra la tecla Día, junto al mismo día de la semana anterior.</translation>
    </message>
    <message>
      <source>Not saved.</source>
      <translation>No se guardó.</translation>
    </message>
    <message>
      <source>Saved:</source>
      <translation>Guardado:</translation>
    </message>
    <message>
      <source>Not saved:</source>
      <translation>No se guardó:</translation>
    </message>
    <message>
      <source>Remove line</source>
      <translation>Quitar línea</translation>
    </message>
    <message>
      <source>Cancel ticket</source>
      <translation>Anular ticket</translation>
    </message>
    <message>
      <source>Park</source>
      <translation>Aparcar</translation>
    </message>
    <message>
      <source>Parked</source>
      <translation>Aparcados</translation>
    </message>
    <message>
      <source>Line %</source>
      <translation>Línea %</translation>
    </message>
    <message>
      <source>Ticket %</source>
      <translation>Ticket %</translation>
    </message>
    <message>
      <source>The number typed is how many of the next line: 2, then *, then its price and +.</source>
      <translation>El número tecleado es cuántas unidades lleva la próxima línea: 2, luego *, luego su precio y +.</translation>
    </message>
    <message>
      <source>Type the amount (1 2 5 0 = 12.50), then Return or F2 for card; + adds it as a line.</source>
      <translation>Escriba el importe (1 2 5 0 = 12.50), luego Intro o F2 para tarjeta; + lo añade como línea.</translation>
    </message>
    <message>
      <source>The keys type the amount.</source>
      <translation>Las teclas escriben el importe.</translation>
    </message>
    <message>
      <source>The keys type the tip (the tip is then keyed).</source>
      <translation>Las teclas escriben la propina (la propina pasa a ser tecleada).</translation>
    </message>
    <message>
      <source>Shows the keypad in the products' place.</source>
      <translation>Muestra el teclado en lugar de los productos.</translation>
    </message>
    <message>
      <source>Shows the catalog's products in the keypad's place.</source>
      <translation>Muestra los productos del catálogo en lugar del teclado.</translation>
    </message>
    <message>
      <source>Clear</source>
      <translation>Borrar</translation>
    </message>
    <message>
      <source>Keypad</source>
      <translation>Teclado</translation>
    </message>
    <message>
      <source>Item</source>
      <translation>Artículo</translation>
    </message>
    <message>
      <source>Amount: type the line's price first (it must be greater than zero).</source>
      <translation>Importe: escriba primero el precio de la línea (debe ser mayor que cero).</translation>
    </message>
    <message>
      <source>No product's name holds what was typed: type its price and press + to add it as a line.</source>
      <translation>Ningún producto se llama así: escriba su precio y pulse + para añadirlo como línea.</translation>
    </message>
    <message>
      <source>Show the receipt on screen instead.</source>
      <translation>Muestre el recibo en pantalla.</translation>
    </message>
    <message>
      <source>Parked tickets</source>
      <translation>Tiques aparcados</translation>
    </message>
    <message>
      <source>Parked tickets: choose one and press Return to recall it.</source>
      <translation>Tiques aparcados: elija uno y pulse Intro para recuperarlo.</translation>
    </message>
    <message>
      <source>No ticket is parked.</source>
      <translation>No hay ningún tique aparcado.</translation>
    </message>
    <message>
      <source>Recall</source>
      <translation>Recuperar</translation>
    </message>
    <message>
      <source>Close</source>
      <translation>Cerrar</translation>
    </message>
    <message>
      <source>Ticket {ticket}: {lines} lines, {total}</source>
      <translation>Ticket {ticket}: {lines} líneas, {total}</translation>
    </message>
    <message>
      <source>Line name (type letters), then the price and +</source>
      <translation>Nombre de la línea (escriba letras), luego el precio y +</translation>
    </message>
    <message>
      <source>Line name</source>
      <translation>Nombre de la línea</translation>
    </message>
    <message>
      <source>Letters typed on the Sale screen name the next line; the price and + add it.</source>
      <translation>Las letras tecleadas en la pantalla Venta dan nombre a la siguiente línea; el precio y + la añaden.</translation>
    </message>
    <message>
      <source>How the tip is taken</source>
      <translation>Cómo se toma la propina</translation>
    </message>
    <message>
      <source>No tip, the customer chooses it on the PIN pad, or the cashier keys it (F7).</source>
      <translation>Sin propina, la elige el cliente en la terminal o la teclea el cajero (F7).</translation>
    </message>
    <message>
      <source>The tip keyed by the cashier: F7 types it, F5 goes back to the amount.</source>
      <translation>La propina que teclea el cajero: F7 la escribe, F5 vuelve al importe.</translation>
    </message>
    <message>
      <source>Adds the amount typed, with the name typed, as a line of the ticket.</source>
      <translation>Añade el importe tecleado, con el nombre tecleado, como una línea del ticket.</translation>
    </message>
    <message>
      <source>Cash: the customer hands over exactly what remains.</source>
      <translation>Efectivo: el cliente entrega justo lo pendiente.</translation>
    </message>
    <message>
      <source>Add line</source>
      <translation>Añadir línea</translation>
    </message>
    <message>
      <source>Exact</source>
      <translation>Exacto</translation>
    </message>
    <message>
      <source>QR</source>
      <translation>QR</translation>
    </message>
    <message>
      <source>No tip</source>
      <translation>Sin propina</translation>
    </message>
    <message>
      <source>Tip on PIN pad</source>
      <translation>Propina en la terminal</translation>
    </message>
    <message>
      <source>Tip keyed</source>
      <translation>Propina tecleada</translation>
    </message>
    <message>
      <source>Cash: the customer hands over this note; the change is shown.</source>
      <translation>Efectivo: el cliente entrega este billete; se muestra el cambio.</translation>
    </message>
    <message>
      <source>Charges the amount typed, or all that remains, on the PIN pad.</source>
      <translation>Cobra en la terminal el importe tecleado, o todo lo pendiente.</translation>
    </message>
    <message>
      <source>The PIN pad reads a gift card for the amount typed, or all that remains.</source>
      <translation>La terminal lee una tarjeta de regalo por el importe tecleado, o todo lo pendiente.</translation>
    </message>
    <message>
      <source>Shows a QR code the customer pays with their phone.</source>
      <translation>Muestra un código QR que el cliente paga con su teléfono.</translation>
    </message>
    <message>
      <source>The amount typed is the cash handed over (all that remains when none is typed); the change is shown.</source>
      <translation>El importe tecleado es el efectivo entregado (todo lo pendiente si no se teclea ninguno); se muestra el cambio.</translation>
    </message>
    <message>
      <source>Adds it to the ticket (a choice is asked first when it has one).</source>
      <translation>Lo añade al ticket (si tiene opciones, se preguntan antes).</translation>
    </message>
    <message>
      <source>Adds this one (its number); its choices are asked next.</source>
      <translation>Añade esta opción (su número); luego se preguntan sus extras.</translation>
    </message>
    <message>
      <source>Back</source>
      <translation>Atrás</translation>
    </message>
    <message>
      <source>Backs out of the question: nothing is added.</source>
      <translation>Sale de la pregunta: no se añade nada.</translation>
    </message>
    <message>
      <source>Add</source>
      <translation>Añadir</translation>
    </message>
    <message>
      <source>Adds the product with the choices ticked.</source>
      <translation>Añade el producto con las opciones marcadas.</translation>
    </message>
    <message>
      <source>Previous page</source>
      <translation>Página anterior</translation>
    </message>
    <message>
      <source>The category's previous products.</source>
      <translation>Los productos anteriores de la categoría.</translation>
    </message>
    <message>
      <source>Next page</source>
      <translation>Página siguiente</translation>
    </message>
    <message>
      <source>The category's next products.</source>
      <translation>Los productos siguientes de la categoría.</translation>
    </message>
    <message>
      <source>Previous category</source>
      <translation>Categoría anterior</translation>
    </message>
    <message>
      <source>Page Up.</source>
      <translation>Re Pág.</translation>
    </message>
    <message>
      <source>Next category</source>
      <translation>Categoría siguiente</translation>
    </message>
    <message>
      <source>Page Down.</source>
      <translation>Av Pág.</translation>
    </message>
    <message>
      <source>Ticks or unticks it (its number); Return adds the product.</source>
      <translation>La marca o desmarca (su número); Intro añade el producto.</translation>
    </message>
    <message>
      <source>No products in this category.</source>
      <translation>No hay productos en esta categoría.</translation>
    </message>
    <message>
      <source>Shows the category's products (Page Up, Page Down: the category before or after).</source>
      <translation>Muestra los productos de la categoría (Re Pág, Av Pág: la categoría anterior o siguiente).</translation>
    </message>
    <message>
      <source>Page {page} of {pages}</source>
      <translation>Página {page} de {pages}</translation>
    </message>
    <message>
      <source>{name}: which one? (1-9, Esc backs out)</source>
      <translation>{name}: ¿cuál? (1-9, Esc sale)</translation>
    </message>
    <message>
      <source>{name}: with? (1-9 ticks, Return adds, Esc backs out)</source>
      <translation>{name}: ¿con qué? (1-9 marca, Intro añade, Esc sale)</translation>
    </message>
    <message>
      <source>No product's name holds “{text}”: type its price and press + to add it as a line.</source>
      <translation>Ningún producto contiene «{text}»: escriba su precio y pulse + para añadirlo como línea.</translation>
    </message>
    <message>
      <source>Category {name}</source>
      <translation>Categoría {name}</translation>
    </message>
    <message>
      <source>ticked</source>
      <translation>marcado</translation>
    </message>
    <message>
      <source>The answer was lost. The till is asking the host what happened; do not charge again.</source>
      <translation>Se perdió la respuesta. La caja está preguntando al host qué pasó; no cobre otra vez.</translation>
    </message>
    <message>
      <source>Show receipt</source>
      <translation>Mostrar recibo</translation>
    </message>
    <message>
      <source>Paying by card</source>
      <translation>Pago con tarjeta</translation>
    </message>
    <message>
      <source>The customer scans the code on the PIN pad.</source>
      <translation>El cliente escanea el código en la terminal.</translation>
    </message>
    <message>
      <source>Sending to the PIN pad…</source>
      <translation>Enviando a la terminal…</translation>
    </message>
    <message>
      <source>PIN pad:</source>
      <translation>Terminal:</translation>
    </message>
    <message>
      <source>Change due: {change}</source>
      <translation>Cambio a entregar: {change}</translation>
    </message>
    <message>
      <source>Paying by gift card</source>
      <translation>Pago con tarjeta de regalo</translation>
    </message>
    <message>
      <source>Paying by QR code</source>
      <translation>Pago con código QR</translation>
    </message>
    <message>
      <source>Price of the last line</source>
      <translation>Precio de la última línea</translation>
    </message>
    <message>
      <source>Reason:</source>
      <translation>Motivo:</translation>
    </message>
    <message>
      <source>Discount on the last line</source>
      <translation>Descuento en la última línea</translation>
    </message>
    <message>
      <source>Discount on the ticket</source>
      <translation>Descuento en el ticket</translation>
    </message>
    <message>
      <source>Percent (10%) or amount (2.00):</source>
      <translation>Porcentaje (10%) o importe (2.00):</translation>
    </message>
    <message>
      <source>New price (2.50):</source>
      <translation>Precio nuevo (2.50):</translation>
    </message>
    <message>
      <source>Quantity: type how many (1 to 999), then *, then the price.</source>
      <translation>Cantidad: teclee cuántas (1 a 999), luego *, luego el precio.</translation>
    </message>
    <message>
      <source>Ticket {ticket} parked: Shift+F1 recalls it.</source>
      <translation>Tique {ticket} aparcado: Mayús+F1 lo recupera.</translation>
    </message>
    <message>
      <source>Ticket {ticket} recalled.</source>
      <translation>Tique {ticket} recuperado.</translation>
    </message>
    <message>
      <source>Subtotal</source>
      <translation>Subtotal</translation>
    </message>
    <message>
      <source>Total</source>
      <translation>Total</translation>
    </message>
    <message>
      <source>Remaining</source>
      <translation>Pendiente</translation>
    </message>
    <message>
      <source>Cash due</source>
      <translation>A pagar en efectivo</translation>
    </message>
    <message>
      <source>Ticket lines</source>
      <translation>Líneas del ticket</translation>
    </message>
    <message>
      <source>One row per line: its name, quantity and price, and amount. Delete removes the last line.</source>
      <translation>Una fila por línea: su nombre, cantidad y precio, e importe. Supr quita la última línea.</translation>
    </message>
    <message>
      <source>Tenders</source>
      <translation>Formas de pago</translation>
    </message>
    <message>
      <source>One row per tender: what paid, the card's last digits, the amount and the outcome.</source>
      <translation>Una fila por forma de pago: con qué se pagó, los últimos dígitos de la tarjeta, el importe y el resultado.</translation>
    </message>
    <message>
      <source>{name}, {amount}</source>
      <translation>{name}, {amount}</translation>
    </message>
    <message>
      <source>What the customer pays in cash: what remains, rounded to the till's cash step.</source>
      <translation>Lo que el cliente paga en efectivo: lo pendiente, redondeado al paso de efectivo de la caja.</translation>
    </message>
    <message>
      <source>New ticket</source>
      <translation>Nuevo ticket</translation>
    </message>
    <message>
      <source>{name}, {quantity} at {price}, {amount}</source>
      <translation>{name}, {quantity} a {price}, {amount}</translation>
    </message>
    <message>
      <source>The lines added up, before tax and tip.</source>
      <translation>La suma de las líneas, antes de impuesto y propina.</translation>
    </message>
    <message>
      <source>The tax on the ticket, as the till's tax rule says.</source>
      <translation>El impuesto del ticket, según la regla de impuestos de la caja.</translation>
    </message>
    <message>
      <source>The tip: keyed by the cashier or chosen on the PIN pad.</source>
      <translation>La propina: tecleada por el cajero o elegida en la terminal.</translation>
    </message>
    <message>
      <source>What the customer pays: the lines, tax and tip.</source>
      <translation>Lo que paga el cliente: las líneas, impuesto y propina.</translation>
    </message>
    <message>
      <source>What the tenders so far have paid.</source>
      <translation>Lo que han pagado hasta ahora las formas de pago.</translation>
    </message>
    <message>
      <source>What the customer still owes: the next tender's amount.</source>
      <translation>Lo que el cliente aún debe: el importe del siguiente pago.</translation>
    </message>
    <message>
      <source>The next customer: a new ticket.</source>
      <translation>El siguiente cliente: un ticket nuevo.</translation>
    </message>
    <message>
      <source>Receipt</source>
      <translation>Recibo</translation>
    </message>
    <message>
      <source>The receipt as it prints, line by line.</source>
      <translation>El recibo tal como se imprime, línea a línea.</translation>
    </message>
    <message>
      <source>Removes the ticket's last line.</source>
      <translation>Quita la última línea del ticket.</translation>
    </message>
    <message>
      <source>Cancels the ticket: approved tenders are voided and cash is given back; asks again when money was taken.</source>
      <translation>Anula el ticket: los pagos aprobados se anulan y el efectivo se devuelve; pregunta otra vez si ya se cobró dinero.</translation>
    </message>
    <message>
      <source>Cancels the payment waiting on the PIN pad: nothing is charged.</source>
      <translation>Cancela el pago que espera en la terminal: no se cobra nada.</translation>
    </message>
    <message>
      <source>Prints the receipt on the PIN pad's printer.</source>
      <translation>Imprime el recibo en la impresora de la terminal.</translation>
    </message>
    <message>
      <source>Shows the receipt on screen.</source>
      <translation>Muestra el recibo en pantalla.</translation>
    </message>
    <message>
      <source>Asks the host again what became of the payment.</source>
      <translation>Vuelve a preguntar al host qué fue del pago.</translation>
    </message>
    <message>
      <source>Amount: at most {max}, this till's limit for one payment; the extra digit was not taken.</source>
      <translation>Importe: como máximo {max}, el límite de esta caja para un pago; el dígito de más no se tomó.</translation>
    </message>
    <message>
      <source>taken</source>
      <translation>cobrado</translation>
    </message>
    <message>
      <source>idle</source>
      <translation>en reposo</translation>
    </message>
    <message>
      <source>waiting for the card</source>
      <translation>esperando la tarjeta</translation>
    </message>
    <message>
      <source>waiting for the tip</source>
      <translation>esperando la propina</translation>
    </message>
    <message>
      <source>waiting for the signature</source>
      <translation>esperando la firma</translation>
    </message>
    <message>
      <source>waiting for a confirmation</source>
      <translation>esperando una confirmación</translation>
    </message>
    <message>
      <source>waiting for the terms</source>
      <translation>esperando los términos</translation>
    </message>
    <message>
      <source>waiting for input</source>
      <translation>esperando un dato</translation>
    </message>
    <message>
      <source>showing a form</source>
      <translation>mostrando un formulario</translation>
    </message>
    <message>
      <source>showing line items</source>
      <translation>mostrando artículos</translation>
    </message>
    <message>
      <source>showing text</source>
      <translation>mostrando texto</translation>
    </message>
    <message>
      <source>showing please wait</source>
      <translation>mostrando espere por favor</translation>
    </message>
    <message>
      <source>printing</source>
      <translation>imprimiendo</translation>
    </message>
    <message>
      <source>Voided</source>
      <translation>Anulado</translation>
    </message>
    <message>
      <source>Captured</source>
      <translation>Capturado</translation>
    </message>
    <message>
      <source>Paid: give the change</source>
      <translation>Pagado: entregue el cambio</translation>
    </message>
    <message>
      <source>The host has not answered yet. Recovery keeps asking; the journal shows the outcome when it is known. Do not charge again.</source>
      <translation>El host aún no responde. La recuperación sigue preguntando; el diario mostrará el resultado cuando se conozca. No cobre otra vez.</translation>
    </message>
    <message>
      <source>Cancel ticket {id}? {paid} already paid goes back (card, gift card and QR tenders voided, cash given back). Press F12 again to confirm.</source>
      <translation>¿Anular el ticket {id}? Se devuelve lo ya pagado, {paid} (pagos con tarjeta, tarjeta de regalo y QR anulados, efectivo devuelto). Pulse F12 de nuevo para confirmar.</translation>
    </message>
    <message>
      <source>Ticket {id} cancelled: {back}.</source>
      <translation>Ticket {id} cancelado: {back}.</translation>
    </message>
    <message>
      <source>Ticket {id} was left open: remaining {rest}. Finish it or cancel it (F12).</source>
      <translation>El ticket {id} quedó abierto: pendiente {rest}. Termínelo o anúlelo (F12).</translation>
    </message>
    <message>
      <source>PARTIAL</source>
      <translation>PARCIAL</translation>
    </message>
    <message>
      <source>not charged</source>
      <translation>no cobrado</translation>
    </message>
    <message>
      <source>checking</source>
      <translation>comprobando</translation>
    </message>
    <message>
      <source>voided</source>
      <translation>anulado</translation>
    </message>
    <message>
      <source>given back</source>
      <translation>devuelto</translation>
    </message>
    <message>
      <source>Nothing was charged. Remaining {rest}.</source>
      <translation>No se cobró nada. Pendiente {rest}.</translation>
    </message>
    <message>
      <source>PARTIALLY APPROVED: {got} of {asked} on {what}. Remaining balance {rest}: choose another tender.</source>
      <translation>APROBADO EN PARTE: {got} de {asked} con {what}. Saldo pendiente {rest}: elija otra forma de pago.</translation>
    </message>
    <message>
      <source>Cash taken: {got}. Remaining {rest}.</source>
      <translation>Efectivo cobrado: {got}. Queda {rest}.</translation>
    </message>
    <message>
      <source>{what} approved: {got}. Remaining {rest}.</source>
      <translation>{what} aprobado: {got}. Pendiente {rest}.</translation>
    </message>
    <message>
      <source>The ticket stays open: remaining {rest}. Try another card or tender.</source>
      <translation>El ticket sigue abierto: pendiente {rest}. Pruebe otra tarjeta u otra forma de pago.</translation>
    </message>
    <message>
      <source>Ticket {id} cancelled: nothing had been paid.</source>
      <translation>Ticket {id} cancelado: no se había pagado nada.</translation>
    </message>
    <message>
      <source>The ticket stays open: remaining {rest}.</source>
      <translation>El ticket sigue abierto: queda {rest}.</translation>
    </message>
    <message>
      <source>{amount} cash given back</source>
      <translation>{amount} en efectivo devueltos</translation>
    </message>
    <message>
      <source>{what} {amount} voided</source>
      <translation>{what} {amount} anulado</translation>
    </message>
    <message>
      <source>Settings</source>
      <translation>Ajustes</translation>
    </message>
    <message>
      <source>High contrast</source>
      <translation>Alto contraste</translation>
    </message>
    <message>
      <source>Black and white, yellow focus</source>
      <translation>Blanco y negro, foco amarillo</translation>
    </message>
    <message>
      <source>Text size</source>
      <translation>Tamaño del texto</translation>
    </message>
    <message>
      <source>These settings change only how the window looks; the till keeps them for its next start. The till's own settings are on the Manager screen.</source>
      <translation>Estos ajustes solo cambian el aspecto de la ventana; la caja los conserva para el próximo arranque. La configuración de la caja está en la pantalla Gerente.</translation>
    </message>
    <message>
      <source>Show the customer PIN pad</source>
      <translation>Mostrar la terminal del cliente</translation>
    </message>
    <message>
      <source>Open tabs</source>
      <translation>Cuentas abiertas</translation>
    </message>
    <message>
      <source>One row per open tab; digits typed on a row are the tip, F4 closes it.</source>
      <translation>Una fila por cuenta abierta; las cifras tecleadas en una fila son la propina, F4 la cierra.</translation>
    </message>
    <message>
      <source>Amount: the tab to open, the amount to add, or the tip at close</source>
      <translation>Importe: la cuenta a abrir, lo que se añade o la propina al cerrar</translation>
    </message>
    <message>
      <source>Open tab</source>
      <translation>Abrir cuenta</translation>
    </message>
    <message>
      <source>Add to tab</source>
      <translation>Añadir a la cuenta</translation>
    </message>
    <message>
      <source>Close with this tip</source>
      <translation>Cerrar con esta propina</translation>
    </message>
    <message>
      <source>Opened</source>
      <translation>Abierta</translation>
    </message>
    <message>
      <source>Authorized</source>
      <translation>Autorizado</translation>
    </message>
    <message>
      <source>No open tabs.</source>
      <translation>No hay cuentas abiertas.</translation>
    </message>
    <message>
      <source>Opening the tab: the customer presents the card on the PIN pad…</source>
      <translation>Abriendo la cuenta: el cliente presenta la tarjeta en la terminal…</translation>
    </message>
    <message>
      <source>Adding to the tab…</source>
      <translation>Añadiendo a la cuenta…</translation>
    </message>
    <message>
      <source>Tab %s: %s authorized; the tip may be up to %s.</source>
      <translation>Cuenta %s: %s autorizado; la propina puede ser de hasta %s.</translation>
    </message>
    <message>
      <source>Amount: type the amount of the tab first.</source>
      <translation>Importe: teclee primero el importe de la cuenta.</translation>
    </message>
    <message>
      <source>Choose a tab and type the amount to add.</source>
      <translation>Elija una cuenta y teclee el importe a añadir.</translation>
    </message>
    <message>
      <source>Choose a tab to close.</source>
      <translation>Elija una cuenta para cerrar.</translation>
    </message>
    <message>
      <source>Closing tab %s: %s plus tip %s…</source>
      <translation>Cerrando la cuenta %s: %s más propina %s…</translation>
    </message>
    <message>
      <source>No tip typed: close tab %s for %s with no tip? Press F4 again to confirm, or type the tip first.</source>
      <translation>No se tecleó propina: ¿cerrar la cuenta %s por %s sin propina? Pulse F4 otra vez para confirmar, o teclee antes la propina.</translation>
    </message>
    <message>
      <source>Would you like to add a tip?</source>
      <translation>¿Desea añadir propina?</translation>
    </message>
    <message>
      <source>Please sign</source>
      <translation>Firme, por favor</translation>
    </message>
    <message>
      <source>Choose a tip</source>
      <translation>Elegir propina</translation>
    </message>
    <message>
      <source>Sign</source>
      <translation>Firmar</translation>
    </message>
    <message>
      <source>Confirm</source>
      <translation>Confirmar</translation>
    </message>
    <message>
      <source>Accept the terms</source>
      <translation>Aceptar las condiciones</translation>
    </message>
    <message>
      <source>Type a value</source>
      <translation>Teclear un valor</translation>
    </message>
    <message>
      <source>Answer a form</source>
      <translation>Responder un formulario</translation>
    </message>
    <message>
      <source>approved (amount triggers apply)</source>
      <translation>aprobada (se aplican los importes de prueba)</translation>
    </message>
    <message>
      <source>Diners, approved (amount triggers apply)</source>
      <translation>Diners, aprobada (se aplican los importes de prueba)</translation>
    </message>
    <message>
      <source>tapped (contactless): S, online PIN required; inserted: approved</source>
      <translation>acercada (sin contacto): S, pide PIN en línea; insertada: aprobada</translation>
    </message>
    <message>
      <source>no answer in time (the host's error 9951)</source>
      <translation>sin respuesta a tiempo (error 9951 del host)</translation>
    </message>
    <message>
      <source>error 9401</source>
      <translation>error 9401</translation>
    </message>
    <message>
      <source>demo host error</source>
      <translation>error del host de demostración</translation>
    </message>
    <message>
      <source>the host answers that it ran out of time (error 9951)</source>
      <translation>el host responde que se le acabó el tiempo (error 9951)</translation>
    </message>
    <message>
      <source>hosted card form error</source>
      <translation>error del formulario de tarjeta alojado</translation>
    </message>
    <message>
      <source>original credit transfer (OCT) Visa</source>
      <translation>transferencia de crédito original (OCT) Visa</translation>
    </message>
    <message>
      <source>original credit transfer (OCT) Mastercard</source>
      <translation>transferencia de crédito original (OCT) Mastercard</translation>
    </message>
    <message>
      <source>approved (A)</source>
      <translation>aprobada (A)</translation>
    </message>
    <message>
      <source>voice referral (R)</source>
      <translation>referencia por voz (R)</translation>
    </message>
    <message>
      <source>declined (D)</source>
      <translation>rechazada (D)</translation>
    </message>
    <message>
      <source>refund declined (D)</source>
      <translation>devolución rechazada (D)</translation>
    </message>
    <message>
      <source>declined when the gateway forwards it (D)</source>
      <translation>rechazado cuando la pasarela lo reenvía (D)</translation>
    </message>
    <message>
      <source>partial approval (P) of half the amount sought, with ALLOWPARTIALAUTH; declined (D) without it; also a capture, incremental authorization or raised invoice seeking 219.00 more</source>
      <translation>aprobación parcial (P) de la mitad del importe pedido, con ALLOWPARTIALAUTH; rechazada (D) sin él; también una captura, autorización incremental o factura aumentada que pida 219.00 más</translation>
    </message>
    <message>
      <source>approved after XX seconds</source>
      <translation>aprobada tras XX segundos</translation>
    </message>
    <message>
      <source>error after XX seconds</source>
      <translation>error tras XX segundos</translation>
    </message>
    <message>
      <source>referral after XX seconds</source>
      <translation>referencia tras XX segundos</translation>
    </message>
    <message>
      <source>declined after XX seconds</source>
      <translation>rechazada tras XX segundos</translation>
    </message>
    <message>
      <source>approved on a prepaid card with a balance of 43.34</source>
      <translation>aprobada en una tarjeta prepago con saldo de 43.34</translation>
    </message>
    <message>
      <source>Test cards: double-click to tap</source>
      <translation>Tarjetas de prueba: doble clic para acercar</translation>
    </message>
    <message>
      <source>Automatic customer (taps the selected card, no tip)</source>
      <translation>Cliente automático (acerca la tarjeta elegida, sin propina)</translation>
    </message>
    <message>
      <source>Customer PIN pad (training)</source>
      <translation>Terminal del cliente (entrenamiento)</translation>
    </message>
    <message>
      <source>Cancel (customer)</source>
      <translation>Cancelar (cliente)</translation>
    </message>
    <message>
      <source>Trigger amounts</source>
      <translation>Importes de prueba</translation>
    </message>
    <message>
      <source>Other tip</source>
      <translation>Otra propina</translation>
    </message>
    <message>
      <source>Done signing</source>
      <translation>Firma lista</translation>
    </message>
    <message>
      <source>Accept</source>
      <translation>Aceptar</translation>
    </message>
    <message>
      <source>Decline</source>
      <translation>Rechazar</translation>
    </message>
    <message>
      <source>Other tip amount</source>
      <translation>Importe de otra propina</translation>
    </message>
    <message>
      <source>The customer's answer</source>
      <translation>La respuesta del cliente</translation>
    </message>
    <message>
      <source>gift card, not active yet</source>
      <translation>tarjeta de regalo, aún no activa</translation>
    </message>
    <message>
      <source>Waiting for the cashier</source>
      <translation>Esperando al cajero</translation>
    </message>
    <message>
      <source>Please sign in the box first.</source>
      <translation>Firme primero en el recuadro.</translation>
    </message>
    <message>
      <source>Or double-click a test card below.</source>
      <translation>O haga doble clic en una tarjeta de prueba debajo.</translation>
    </message>
    <message>
      <source>Or double-click a test card on the right.</source>
      <translation>O haga doble clic en una tarjeta de prueba a la derecha.</translation>
    </message>
    <message>
      <source>Test cards</source>
      <translation>Tarjetas de prueba</translation>
    </message>
    <message>
      <source>Automatic customer</source>
      <translation>Cliente automático</translation>
    </message>
    <message>
      <source>Tap</source>
      <translation>Acercar</translation>
    </message>
    <message>
      <source>Tap card</source>
      <translation>Acercar tarjeta</translation>
    </message>
    <message>
      <source>Insert</source>
      <translation>Insertar</translation>
    </message>
    <message>
      <source>Insert card</source>
      <translation>Insertar tarjeta</translation>
    </message>
    <message>
      <source>Host down</source>
      <translation>Host caído</translation>
    </message>
    <message>
      <source>Host down (rehearse an outage)</source>
      <translation>Host caído (ensayar una caída)</translation>
    </message>
    <message>
      <source>gift card, active, %s</source>
      <translation>tarjeta de regalo, activa, %s</translation>
    </message>
    <message>
      <source>Approved for {got}: {rest} still due. Pay the rest another way.</source>
      <translation>Aprobado por {got}: faltan {rest}. Pague el resto de otra forma.</translation>
    </message>
    <message>
      <source>Welcome</source>
      <translation>Bienvenido</translation>
    </message>
    <message>
      <source>Tip: type an amount such as 2.50</source>
      <translation>Propina: teclee un importe como 2.50</translation>
    </message>
    <message>
      <source>Approved — thank you</source>
      <translation>Aprobado — gracias</translation>
    </message>
    <message>
      <source>Not approved</source>
      <translation>No aprobado</translation>
    </message>
    <message>
      <source>Receipt printer (training)</source>
      <translation>Impresora de recibos (entrenamiento)</translation>
    </message>
    <message>
      <source>Each receipt as the printer would print it.</source>
      <translation>Cada recibo tal como lo imprimiría la impresora.</translation>
    </message>
    <message>
      <source>Printed receipts</source>
      <translation>Recibos impresos</translation>
    </message>
    <message>
      <source>Tab (authorization)</source>
      <translation>Cuenta (autorización)</translation>
    </message>
    <message>
      <source>Manual sale</source>
      <translation>Venta manual</translation>
    </message>
    <message>
      <source>Manual authorization</source>
      <translation>Autorización manual</translation>
    </message>
    <message>
      <source>Gift card activation</source>
      <translation>Activación de tarjeta de regalo</translation>
    </message>
    <message>
      <source>Gift card reload</source>
      <translation>Recarga de tarjeta de regalo</translation>
    </message>
    <message>
      <source>Gift card allocation</source>
      <translation>Emisión de tarjeta de regalo</translation>
    </message>
    <message>
      <source>Gift card cash-out</source>
      <translation>Retiro de saldo de tarjeta de regalo</translation>
    </message>
    <message>
      <source>Gift card deactivation</source>
      <translation>Desactivación de tarjeta de regalo</translation>
    </message>
    <message>
      <source>Gift card reactivation</source>
      <translation>Reactivación de tarjeta de regalo</translation>
    </message>
    <message>
      <source>Gift card sale</source>
      <translation>Venta con tarjeta de regalo</translation>
    </message>
    <message>
      <source>Card-not-present charge</source>
      <translation>Cargo sin tarjeta presente</translation>
    </message>
    <message>
      <source>Starting</source>
      <translation>Iniciando</translation>
    </message>
    <message>
      <source>Sent, waiting for the host</source>
      <translation>Enviado, esperando al host</translation>
    </message>
    <message>
      <source>Checking with the host</source>
      <translation>Consultando con el host</translation>
    </message>
    <message>
      <source>Voiding</source>
      <translation>Anulando</translation>
    </message>
    <message>
      <source>Taken</source>
      <translation>Cobrado</translation>
    </message>
    <message>
      <source>Given back</source>
      <translation>Devuelto</translation>
    </message>
    <message>
      <source>Declined when sent on (stored offline): collect it</source>
      <translation>Rechazado al reenviarlo (guardado sin conexión): cóbrelo</translation>
    </message>
    <message>
      <source>Declined by the card's bank. Ask for another card or another way to pay.</source>
      <translation>Rechazada por el banco de la tarjeta. Pida otra tarjeta u otra forma de pago.</translation>
    </message>
    <message>
      <source>The bank wants a phone call. Ask for another card, or call the bank for an approval code.</source>
      <translation>El banco pide una llamada. Pida otra tarjeta, o llame al banco para obtener un código de aprobación.</translation>
    </message>
    <message>
      <source>The address or security code did not match: not charged. Check them with the customer or ask for another card.</source>
      <translation>La dirección o el código de seguridad no coinciden: no se cobró. Verifíquelos con el cliente o pida otra tarjeta.</translation>
    </message>
    <message>
      <source>Refused by the payment host's fraud rules: not charged. Ask for another way to pay.</source>
      <translation>Rechazado por las reglas antifraude del host de pagos: no se cobró. Pida otra forma de pago.</translation>
    </message>
    <message>
      <source>Cancelled on the PIN pad: not charged.</source>
      <translation>Cancelado en la terminal: no se cobró.</translation>
    </message>
    <message>
      <source>The PIN pad was busy with another payment: not charged. Wait for it, then try again.</source>
      <translation>La terminal estaba ocupada con otro pago: no se cobró. Espere a que termine y vuelva a intentarlo.</translation>
    </message>
    <message>
      <source>The PIN pad reported a problem: not charged. Try again; if it repeats, restart the PIN pad.</source>
      <translation>La terminal informó de un problema: no se cobró. Vuelva a intentarlo; si se repite, reinicie la terminal.</translation>
    </message>
    <message>
      <source>This card is not accepted here: not charged. Ask for another card.</source>
      <translation>Esta tarjeta no se acepta aquí: no se cobró. Pida otra tarjeta.</translation>
    </message>
    <message>
      <source>The card number is not valid: not charged. Check it or ask for another card.</source>
      <translation>El número de tarjeta no es válido: no se cobró. Verifíquelo o pida otra tarjeta.</translation>
    </message>
    <message>
      <source>No card was read: not charged. Ask the customer to present the card again.</source>
      <translation>No se leyó ninguna tarjeta: no se cobró. Pida al cliente que presente la tarjeta otra vez.</translation>
    </message>
    <message>
      <source>No PIN was entered: not charged. Try again and ask the customer for the PIN.</source>
      <translation>No se introdujo el PIN: no se cobró. Vuelva a intentarlo y pida el PIN al cliente.</translation>
    </message>
    <message>
      <source>Not enough on the card: take part of the amount another way.</source>
      <translation>No hay suficiente en la tarjeta: cobre parte del importe de otra forma.</translation>
    </message>
    <message>
      <source>The host has no record of this payment: nothing was charged.</source>
      <translation>El host no tiene registro de este pago: no se cobró nada.</translation>
    </message>
    <message>
      <source>The host already has this payment: check the journal before trying again.</source>
      <translation>El host ya tiene este pago: revise el diario antes de volver a intentarlo.</translation>
    </message>
    <message>
      <source>No answer from the host in time: the till is checking whether it went through. Do not take the payment another way yet.</source>
      <translation>El host no respondió a tiempo: la caja está comprobando si se realizó. No cobre de otra forma todavía.</translation>
    </message>
    <message>
      <source>Checking with the host: do not take the payment another way yet.</source>
      <translation>Consultando con el host: no cobre de otra forma todavía.</translation>
    </message>
    <message>
      <source>The payment host cannot be reached: not charged. Try again in a moment, or use offline mode (Manager).</source>
      <translation>No se puede contactar con el host de pagos: no se cobró. Inténtelo en un momento, o use el modo sin conexión (Gerente).</translation>
    </message>
    <message>
      <source>The request never reached the host: not charged. It is safe to try again.</source>
      <translation>La solicitud nunca llegó al host: no se cobró. Puede volver a intentarlo con seguridad.</translation>
    </message>
    <message>
      <source>The payment host cannot be reached: not charged. The till is offline now and stores card payments: present the card again.</source>
      <translation>No se puede llegar al host de pagos: no se cobró. La caja está sin conexión y guarda los pagos con tarjeta: presente la tarjeta otra vez.</translation>
    </message>
    <message>
      <source>The payment host cannot be reached: not charged. Take cash, or a manager takes a manual sale with a voice authorization code.</source>
      <translation>No se puede llegar al host de pagos: no se cobró. Cobre en efectivo, o un gerente hace una venta manual con un código de autorización telefónica.</translation>
    </message>
    <message>
      <source>Stored while the host was away, then declined by the host: not charged. Reach the customer and collect it.</source>
      <translation>Guardado mientras el host no estaba, luego rechazado por el host: no se cobró. Contacte al cliente y cóbrelo.</translation>
    </message>
    <message>
      <source>The till sent something the host refused: not charged. Tell the manager.</source>
      <translation>La caja envió algo que el host rechazó: no se cobró. Avise al gerente.</translation>
    </message>
    <message>
      <source>The host refused this amount: not charged. Check the amount.</source>
      <translation>El host rechazó este importe: no se cobró. Verifique el importe.</translation>
    </message>
    <message>
      <source>The saved card is no longer valid: not charged. Ask for the card.</source>
      <translation>La tarjeta guardada ya no es válida: no se cobró. Pida la tarjeta.</translation>
    </message>
    <message>
      <source>This till is not allowed to do that: not charged. Tell the manager.</source>
      <translation>Esta caja no tiene permiso para eso: no se cobró. Avise al gerente.</translation>
    </message>
    <message>
      <source>The till's setup is wrong: not charged. Tell the manager (support).</source>
      <translation>La configuración de la caja es incorrecta: no se cobró. Avise al gerente (soporte).</translation>
    </message>
    <message>
      <source>The payment host reported an error: not charged. Try again; the details are in the journal.</source>
      <translation>El host de pagos informó de un error: no se cobró. Vuelva a intentarlo; los detalles están en el diario.</translation>
    </message>
    <message>
      <source>Cash {given} given, {taken} taken, change {change}</source>
      <translation>Efectivo {given} entregado, {taken} cobrado, cambio {change}</translation>
    </message>
    <message>
      <source>Approved for only %s: collect the remaining %s another way.</source>
      <translation>Aprobado solo por %s: cobre los %s restantes de otra forma.</translation>
    </message>
    <message>
      <source>Sign in</source>
      <translation>Iniciar sesión</translation>
    </message>
    <message>
      <source>Type your clerk PIN and press Enter.</source>
      <translation>Teclee su PIN de cajero y pulse Intro.</translation>
    </message>
    <message>
      <source>Clerk PIN</source>
      <translation>PIN del cajero</translation>
    </message>
    <message>
      <source>Sign out</source>
      <translation>Cerrar sesión</translation>
    </message>
    <message>
      <source>PIN not accepted: no clerk of this till has that PIN.</source>
      <translation>PIN no aceptado: ningún cajero de esta caja tiene ese PIN.</translation>
    </message>
    <message>
      <source>Tick the lines that come back (Space); none ticked: the whole ticket.</source>
      <translation>Marque las líneas que se devuelven (Espacio); sin marcar: todo el ticket.</translation>
    </message>
    <message>
      <source>Lines of the ticket</source>
      <translation>Líneas del ticket</translation>
    </message>
    <message>
      <source>Refund [Return]</source>
      <translation>Devolver [Return]</translation>
    </message>
    <message>
      <source>Cancel [Esc]</source>
      <translation>Cancelar [Esc]</translation>
    </message>
    <message>
      <source>Refund ticket %s</source>
      <translation>Devolución del ticket %s</translation>
    </message>
    <message>
      <source>Goes back: %s (%s)</source>
      <translation>Se devuelve: %s (%s)</translation>
    </message>
    <message>
      <source>update {0} installed</source>
      <translation>actualización {0} instalada</translation>
    </message>
    <message>
      <source>update {0} failed its self-check</source>
      <translation>la actualización {0} falló su autocomprobación</translation>
    </message>
    <message>
      <source>update {0} available</source>
      <translation>actualización {0} disponible</translation>
    </message>
    <message>
      <source>update {0} ready</source>
      <translation>actualización {0} lista</translation>
    </message>
    <message>
      <source>Backspace</source>
      <translation>Retroceso</translation>
    </message>
    <message>
      <source>Sales by hour</source>
      <translation>Ventas por hora</translation>
    </message>
    <message>
      <source>Top products</source>
      <translation>Productos más vendidos</translation>
    </message>
    <message>
      <source>Top categories</source>
      <translation>Categorías más vendidas</translation>
    </message>
    <message>
      <source>Discounts</source>
      <translation>Descuentos</translation>
    </message>
    <message>
      <source>Refunds and voids</source>
      <translation>Devoluciones y anulaciones</translation>
    </message>
    <message>
      <source>Sales by clerk</source>
      <translation>Ventas por cajero</translation>
    </message>
    <message>
      <source>Sales by till</source>
      <translation>Ventas por caja</translation>
    </message>
    <message>
      <source>Hour</source>
      <translation>Hora</translation>
    </message>
    <message>
      <source>Tender</source>
      <translation>Forma de pago</translation>
    </message>
    <message>
      <source>Product</source>
      <translation>Producto</translation>
    </message>
    <message>
      <source>What</source>
      <translation>Concepto</translation>
    </message>
    <message>
      <source>Others</source>
      <translation>Otros</translation>
    </message>
    <message>
      <source>Payments: %s</source>
      <translation>Pagos: %s</translation>
    </message>
    <message>
      <source>Voids</source>
      <translation>Anulaciones</translation>
    </message>
    <message>
      <source>Week earlier (%s)</source>
      <translation>Semana anterior (%s)</translation>
    </message>
    <message>
      <source>%s sold</source>
      <translation>%s vendidos</translation>
    </message>
    <message>
      <source>%s times</source>
      <translation>%s veces</translation>
    </message>
    <message>
      <source>Cashier</source>
      <translation>Caja</translation>
    </message>
    <message>
      <source>TRAINING MODE — no real money moves; receipts and journal entries are marked TRAINING</source>
      <translation>MODO ENTRENAMIENTO — no se mueve dinero real; recibos y diario marcados ENTRENAMIENTO</translation>
    </message>
    <message>
      <source>TRAINING MODE — no real money moves</source>
      <translation>MODO ENTRENAMIENTO — no se mueve dinero real</translation>
    </message>
    <message>
      <source>OFFLINE MODE — payments are stored and sent when the gateway is back online</source>
      <translation>MODO FUERA DE LÍNEA — los pagos se guardan y se envían cuando la pasarela vuelva</translation>
    </message>
    <message>
      <source>A payment is open</source>
      <translation>Hay un pago en curso</translation>
    </message>
    <message>
      <source>Cancel it on the PIN pad and close, or wait for it to finish.</source>
      <translation>Cancélelo en la terminal y cierre, o espere a que termine.</translation>
    </message>
    <message>
      <source>Cancel the payment and close</source>
      <translation>Cancelar el pago y cerrar</translation>
    </message>
    <message>
      <source>Wait</source>
      <translation>Esperar</translation>
    </message>
    <message>
      <source>Offline: cards stored — %d for %s</source>
      <translation>Sin conexión: tarjetas guardadas — %d por %s</translation>
    </message>
    <message>
      <source>Online</source>
      <translation>En línea</translation>
    </message>
    <message>
      <source>Training</source>
      <translation>Entrenamiento</translation>
    </message>
    <message>
      <source>Live</source>
      <translation>Real</translation>
    </message>
    <message>
      <source>Clock moved back %s: check the date and time</source>
      <translation>El reloj retrocedió %s: revise la fecha y la hora</translation>
    </message>
    <message>
      <source>Clock moved forward %s: check the date and time</source>
      <translation>El reloj avanzó %s: revise la fecha y la hora</translation>
    </message>
    <message>
      <source>Recovery at start-up resolved</source>
      <translation>La recuperación al arrancar resolvió</translation>
    </message>
    <message>
      <source>A payment is open: %s.</source>
      <translation>Hay un pago en curso: %s.</translation>
    </message>
    <message>
      <source>Starting…</source>
      <translation>Arrancando…</translation>
    </message>
    <message>
      <source>Host: not reachable</source>
      <translation>Host: sin conexión</translation>
    </message>
    <message>
      <source>Host: reachable</source>
      <translation>Host: conectado</translation>
    </message>
    <message>
      <source>(see Manager)</source>
      <translation>(ver Gerente)</translation>
    </message>
    <message>
      <source>Payment in progress</source>
      <translation>Pago en curso</translation>
    </message>
    <message>
      <source>Nothing waiting for recovery</source>
      <translation>Nada espera recuperación</translation>
    </message>
    <message>
      <source>Still open (see Manager):</source>
      <translation>Siguen abiertos (vea Gerente):</translation>
    </message>
    <message>
      <source>Waiting for recovery:</source>
      <translation>Esperan recuperación:</translation>
    </message>
    <message>
      <source>the oldest must be sent within %s h</source>
      <translation>el más antiguo debe enviarse en %s h</translation>
    </message>
    <message>
      <source>The till could not start:</source>
      <translation>La caja no pudo arrancar:</translation>
    </message>
  </context>
</TS>
